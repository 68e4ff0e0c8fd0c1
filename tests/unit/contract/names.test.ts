import { describe, expect, test } from "vitest";
import { SymbolKind } from "vscode-languageserver-protocol";
import { SEVERITY_NAMES, isSeverityName, severityName, severityRank, symbolKindName } from "../../../src/contract/names.js";

describe("severity names", () => {
  test("map LSP numbers, and a missing or unknown severity to error", () => {
    expect([1, 2, 3, 4].map((s) => severityName(s as 1 | 2 | 3 | 4))).toEqual(["error", "warning", "information", "hint"]);
    expect(severityName(undefined)).toBe("error");
    expect(severityName(9 as 1)).toBe("error");
    expect(severityName(0 as 1)).toBe("error");
  });

  test("rank error first", () => {
    expect(SEVERITY_NAMES.map(severityRank)).toEqual([1, 2, 3, 4]);
    expect(isSeverityName("hint")).toBe(true);
    expect(isSeverityName("info")).toBe(false);
  });
});

describe("symbolKindName", () => {
  test("is lower snake_case for every LSP kind", () => {
    expect(symbolKindName(SymbolKind.File)).toBe("file");
    expect(symbolKindName(SymbolKind.Class)).toBe("class");
    expect(symbolKindName(SymbolKind.EnumMember)).toBe("enum_member");
    expect(symbolKindName(SymbolKind.TypeParameter)).toBe("type_parameter");
    for (let k = 1; k <= 26; k++) expect(symbolKindName(k as SymbolKind)).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  test("is 'unknown' for numbers LSP does not define", () => {
    for (const k of [0, 27, -1, 1.5, 1000]) expect(symbolKindName(k as SymbolKind)).toBe("unknown");
  });
});
