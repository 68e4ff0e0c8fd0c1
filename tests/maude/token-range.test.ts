import { describe, expect, test } from "vitest";
import { namedToken, WarningLocator } from "../../servers/maude/src/token-range.js";

/** The text a range covers, for readable assertions. */
function covered(text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const line = text.split("\n")[r.start.line] ?? "";
  return line.slice(r.start.character, r.end.character);
}

describe("namedToken", () => {
  test.each([
    ["bad token h.", "h"],
    ["didn't expect token N:\neq g ( N ) = N N <---*HERE*", "N"],
    ["skipped unexpected token: ELF", "ELF"],
    ["undeclared sort Bar.", "Bar"],
    ["missing space between Foo\n    and period.", "Foo"],
    ["no module NOPE.", "NOPE"],
    ["no parse for statement\neq g (N) = h (N) .", null],
  ])("%s", (message, token) => {
    expect(namedToken(message)).toBe(token);
  });
});

describe("WarningLocator", () => {
  test("narrows to the named token", () => {
    const text = "fmod M is\n  eq g(N) = h(N) .\nendfm\n";
    expect(covered(text, new WarningLocator(text).rangeFor(2, "bad token h."))).toBe("h");
  });

  test("the HERE marker picks the right occurrence", () => {
    const text = "fmod M is\n  eq g(N) = N N N .\nendfm\n";
    const r = new WarningLocator(text).rangeFor(2, "didn't expect token N:\neq g ( N ) = N N <---*HERE*");
    expect(r.start.character).toBe(14);
  });

  test("the HERE marker across lines: the statement started earlier", () => {
    const text = "fmod M is\n  eq g(0)\n    = N N\n      N .\nendfm\n";
    const r = new WarningLocator(text).rangeFor(3, "didn't expect token N:\neq g ( 0 ) = N N <---*HERE*");
    expect(r.start).toEqual({ line: 2, character: 8 });
  });

  test("columns are UTF-16 code units (an emoji counts two)", () => {
    const text = "***( 🎉 ) eq g(N) = h(N) .\n";
    const r = new WarningLocator(text).rangeFor(1, "bad token h.");
    expect(r.start.character).toBe(text.indexOf("h("));
    expect(covered(text, r)).toBe("h");
  });

  test("a token not on the line falls back to the trimmed line", () => {
    const text = "fmod M is\n  op f : Foo -> Bar .\nendfm\n";
    expect(covered(text, new WarningLocator(text).rangeFor(2, "undeclared sort Baz."))).toBe("op f : Foo -> Bar .");
  });

  test("a lone \\r ends a line for LSP positions, while Maude's line numbers count \\n only", () => {
    // Maude 3.2 reports the undeclared T on its line 1 and U on its line 2 for this very text.
    const text = "fmod A is\r  sort S .\r  op f : -> T .\r\nop g : -> U .\nendfm\n";
    const locator = new WarningLocator(text);
    expect(locator.rangeFor(1, "undeclared sort T.")).toEqual({ start: { line: 2, character: 12 }, end: { line: 2, character: 13 } });
    expect(locator.rangeFor(2, "undeclared sort U.")).toEqual({ start: { line: 3, character: 10 }, end: { line: 3, character: 11 } });
    expect(locator.rangeFor(2, "no parse for statement")).toEqual({ start: { line: 3, character: 0 }, end: { line: 3, character: 13 } });
  });

  test("lines past the end clamp to the last line", () => {
    const r = new WarningLocator("a\nb").rangeFor(99, "x");
    expect(r.start.line).toBe(1);
  });
});
