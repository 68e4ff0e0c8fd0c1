import { describe, expect, test } from "vitest";
import type { BridgeDiagnostic } from "../../../src/contract/diagnostic-order.js";
import { splitSince, type PlacedDiagnostic } from "../../../src/diagnostics/findings/match-findings.js";
import { parseRenames } from "../../../src/diagnostics/since/renames.js";

function placed(path: string, line: number, message: string, text: string, extra: Partial<BridgeDiagnostic> = {}): PlacedDiagnostic {
  const range = { start: { line, column: 1 }, end: { line, column: 5 } };
  return { workspace: "w", line: text, diagnostic: { path, range, severity: "error", code: "1", source: "ts", message, channels: ["push"], ...extra } };
}
const same = (_workspace: string, path: string) => path;
const names = (items: readonly PlacedDiagnostic[]) => items.map((item) => `${item.diagnostic.path}:${item.diagnostic.range.start.line}`);

describe("splitSince", () => {
  test("a finding that moved to another line with the same text is unchanged", () => {
    const split = splitSince([placed("a.ts", 9, "m", "x = 1")], [placed("a.ts", 2, "m", "x = 1")], same);
    expect(names(split.unchanged)).toEqual(["a.ts:9"]);
    expect(split.introduced).toEqual([]);
    expect(split.resolved).toEqual([]);
  });

  test("another line text, severity, source, code or message makes it another finding", () => {
    const old = placed("a.ts", 1, "m", "x = 1");
    for (const now of [
      placed("a.ts", 1, "m", "x = 2"),
      placed("a.ts", 1, "m", "x = 1", { severity: "warning" }),
      placed("a.ts", 1, "m", "x = 1", { source: "eslint" }),
      placed("a.ts", 1, "m", "x = 1", { code: "2" }),
      placed("a.ts", 1, "n", "x = 1"),
      placed("b.ts", 1, "m", "x = 1"),
    ]) {
      const split = splitSince([now], [old], same);
      expect([split.introduced.length, split.unchanged.length, split.resolved.length]).toEqual([1, 0, 1]);
    }
  });

  test("equal findings pair in order: a second copy is introduced, the first stays unchanged", () => {
    const split = splitSince([placed("a.ts", 1, "m", "f()"), placed("a.ts", 4, "m", "f()")], [placed("a.ts", 1, "m", "f()")], same);
    expect(names(split.unchanged)).toEqual(["a.ts:1"]);
    expect(names(split.introduced)).toEqual(["a.ts:4"]);
  });

  test("a renamed file's findings follow it; resolved ones keep the revision's place", () => {
    const renamed = (_workspace: string, path: string) => (path === "old.ts" ? "new.ts" : path);
    const split = splitSince([placed("new.ts", 3, "m", "y")], [placed("old.ts", 1, "m", "y"), placed("old.ts", 7, "gone", "z")], renamed);
    expect(names(split.unchanged)).toEqual(["new.ts:3"]);
    expect(names(split.resolved)).toEqual(["old.ts:7"]);
  });
});

describe("parseRenames", () => {
  test("renames map the new path to the old; copies, additions and changes do not", () => {
    const output = ["M", "a.ts", "R097", "old/b.ts", "new/b.ts", "C100", "c.ts", "c2.ts", "A", "d.ts", "D", "e.ts", ""].join("\0");
    expect([...parseRenames(output)]).toEqual([["new/b.ts", "old/b.ts"]]);
  });
});
