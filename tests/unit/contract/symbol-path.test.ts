import { describe, expect, test } from "vitest";
import type { BridgeError } from "../../../src/contract/errors.js";
import { flattenSymbols, type SymbolNode } from "../../../src/contract/symbol-order.js";
import { findSymbolByPath, withNamePaths } from "../../../src/contract/symbol-path.js";

const node = (name: string, line: number, lines: number, children: SymbolNode[] = []): SymbolNode => ({
  name,
  kind: children.length > 0 ? "class" : "method",
  detail: null,
  range: { start: { line, column: 1 }, end: { line: line + lines, column: 2 } },
  selection_range: { start: { line, column: 7 }, end: { line, column: 7 + name.length } },
  children,
});

const symbols = withNamePaths(
  flattenSymbols([node("Circle", 1, 5, [node("area", 2, 1)]), node("Widget", 10, 5, [node("area", 11, 1), node("Inner", 13, 1, [node("area", 13, 0)])])]),
);

function failure(query: string, line?: number): BridgeError {
  try {
    findSymbolByPath(symbols, query, line);
  } catch (error) {
    return error as BridgeError;
  }
  throw new Error("expected a failure");
}

describe("findSymbolByPath", () => {
  test("name paths run from the outermost container", () => {
    expect(symbols.map((s) => s.name_path)).toEqual(["Circle", "Circle.area", "Widget", "Widget.area", "Widget.Inner", "Widget.Inner.area"]);
  });

  test("a dotted path picks one symbol; a suffix of a longer path matches too", () => {
    expect(findSymbolByPath(symbols, "Widget.area").selection_range.start).toEqual({ line: 11, column: 7 });
    expect(findSymbolByPath(symbols, "Inner.area").name_path).toBe("Widget.Inner.area");
  });

  test("several matches are InvalidArguments with the candidates in document order", () => {
    const error = failure("area");
    expect(error.code).toBe("InvalidArguments");
    expect(error.details.candidates).toEqual([
      { name_path: "Circle.area", kind: "method", range: { start: { line: 2, column: 1 }, end: { line: 3, column: 2 } } },
      { name_path: "Widget.area", kind: "method", range: { start: { line: 11, column: 1 }, end: { line: 12, column: 2 } } },
      { name_path: "Widget.Inner.area", kind: "method", range: { start: { line: 13, column: 1 }, end: { line: 13, column: 2 } } },
    ]);
  });

  test("line chooses the symbol named on it, else the one whose range holds it", () => {
    expect(findSymbolByPath(symbols, "area", 11).name_path).toBe("Widget.area");
    expect(findSymbolByPath(symbols, "area", 3).name_path).toBe("Circle.area");
    expect(failure("area", 40).details.candidates).toHaveLength(3);
  });

  test("no match lists the file's symbols; a partial name does not match", () => {
    const error = failure("rea");
    expect(error.message).toContain('no symbol named "rea"');
    expect((error.details.candidates as unknown[]).length).toBe(symbols.length);
  });
});
