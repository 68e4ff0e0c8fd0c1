import { describe, expect, test } from "vitest";
import { targetsOf } from "../../../src/lsp/features/location-answer.js";

const range = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });

describe("targetsOf", () => {
  test("a Location, Location[] and LocationLink[] all become targets; null is none", () => {
    const location = { uri: "file:///a.ts", range: range(1, 2, 5) };
    const link = { targetUri: "file:///b.ts", targetRange: range(3, 0, 40), targetSelectionRange: range(3, 9, 14) };
    expect(targetsOf(null)).toEqual([]);
    expect(targetsOf(location)).toEqual([{ uri: "file:///a.ts", range: range(1, 2, 5), selectionRange: range(1, 2, 5) }]);
    expect(targetsOf([location])).toHaveLength(1);
    expect(targetsOf([link])).toEqual([{ uri: "file:///b.ts", range: range(3, 0, 40), selectionRange: range(3, 9, 14) }]);
  });

  test("entries of neither shape are dropped, not fatal", () => {
    expect(targetsOf([{ uri: 5 } as never, { uri: "file:///a.ts", range: range(0, 0, 1) }])).toHaveLength(1);
  });
});
