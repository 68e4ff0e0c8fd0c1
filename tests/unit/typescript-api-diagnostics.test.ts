import { describe, expect, test } from "vitest";
import { type ApiDiagnostic, flattenMessage, lineStarts, pullForm } from "../../src/languages/typescript/api-diagnostics.js";

// TypeScript 7's API diagnostics (UTF-16 offsets, the compiler's categories, a message chain) in
// the form its pull gives lspmcp (lines and characters in the negotiated encoding, severities,
// the chain flattened), as tests/differential/typescript-api-lane.test.ts checks on real trees.

const at = (text: string, needle: string, length = needle.length) => {
  const pos = text.indexOf(needle);
  return { pos, end: pos + length };
};
const diagnostic = (fields: Partial<ApiDiagnostic> & { pos: number; end: number }): ApiDiagnostic => ({
  fileName: "/p/a.ts",
  code: 2322,
  category: 1,
  text: "Type 'string' is not assignable to type 'number'.",
  ...fields,
});

describe("pullForm", () => {
  test("lines break at \\n, \\r\\n and a lone \\r, not at U+2028", () => {
    const text = 'a\r\nb\rc\nconst s = "x\u2028y"; bad\n';
    const [found] = pullForm(text, [diagnostic(at(text, "bad"))], "utf-16")!;
    expect(found!.range).toEqual({ start: { line: 3, character: 17 }, end: { line: 3, character: 20 } });
    expect(lineStarts("a\r\nb\rc\n")).toEqual([0, 3, 5, 7]);
  });

  test("characters are counted in the negotiated encoding from UTF-16 offsets; astral characters are two units", () => {
    const text = 'const s = "é😀𝒳"; bad\n';
    const offsets = at(text, "bad");
    const character = (encoding: "utf-8" | "utf-16" | "utf-32") => pullForm(text, [diagnostic(offsets)], encoding)![0]!.range.start.character;
    expect(character("utf-16")).toBe(19);
    expect(character("utf-32")).toBe(17);
    expect(character("utf-8")).toBe(24);
  });

  test("a byte order mark is not part of the text the compiler counts", () => {
    const text = "\uFEFFconst bad = 1;\n";
    const [found] = pullForm(text, [diagnostic({ pos: 6, end: 9 })], "utf-16")!;
    expect(found!.range.start).toEqual({ line: 0, character: 6 });
  });

  test("categories become the pull's severities; source is ts; the code stays a number; no tags, no related information", () => {
    const text = "x\n";
    const severities = [0, 1, 2, 3].map((category) => pullForm(text, [diagnostic({ pos: 0, end: 1, category, code: 1000 + category })], "utf-16")![0]!);
    expect(severities.map((found) => found.severity)).toEqual([2, 1, 4, 3]);
    expect(severities[1]).toEqual({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      severity: 1,
      code: 1001,
      source: "ts",
      message: "Type 'string' is not assignable to type 'number'.",
    });
  });

  test("a style check as an error, an unknown category or an offset past the text: the file is left to its pull", () => {
    expect(pullForm("x\n", [diagnostic({ pos: 0, end: 1, code: 6133 })], "utf-16")).toBeNull();
    expect(pullForm("x\n", [diagnostic({ pos: 0, end: 1, code: 6133, category: 2 })], "utf-16")).not.toBeNull();
    expect(pullForm("x\n", [diagnostic({ pos: 0, end: 1, category: 7 })], "utf-16")).toBeNull();
    expect(pullForm("x\n", [diagnostic({ pos: 0, end: 9 })], "utf-16")).toBeNull();
  });

  test("the order of the answers is kept", () => {
    const text = "ab\n";
    const found = pullForm(text, [diagnostic({ pos: 1, end: 2, code: 2 }), diagnostic({ pos: 0, end: 1, code: 1 })], "utf-16")!;
    expect(found.map((item) => item.code)).toEqual([2, 1]);
  });
});

describe("flattenMessage", () => {
  test("each link of the chain on a line of its own, two spaces deeper per level", () => {
    const chained = diagnostic({
      pos: 0,
      end: 1,
      text: "head",
      messageChain: [
        diagnostic({ pos: 0, end: 0, text: "first", messageChain: [diagnostic({ pos: 0, end: 0, text: "deeper" })] }),
        diagnostic({ pos: 0, end: 0, text: "second" }),
      ],
    });
    expect(flattenMessage(chained)).toBe("head\n  first\n    deeper\n  second");
    expect(pullForm("x\n", [chained], "utf-16")![0]!.message).toBe("head\n  first\n    deeper\n  second");
  });
});
