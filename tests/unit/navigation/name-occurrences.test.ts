import { describe, expect, test } from "vitest";
import { LineIndex } from "../../../src/contract/positions.js";
import { decodeSemanticTokens } from "../../../src/lsp/features/semantic-tokens.js";
import { groupBySameDefinition, tokenOccurrences, wordOccurrences } from "../../../src/navigation/name-occurrences.js";

const TEXT = [
  'import { Base } from "../pipeline/base";',
  "// Base is only a word here, and in the string below",
  'const label = "Base";',
  "class App extends Base { base = Basement; }",
  "const 🙂 = Base;",
].join("\n");
const lines = new LineIndex(TEXT);

describe("wordOccurrences", () => {
  test("finds whole words only, with code-point columns on every line, comments and strings included", () => {
    expect(wordOccurrences("Base", lines, "utf-16").map((o) => o.at)).toEqual([
      { line: 1, column: 10 },
      { line: 2, column: 4 },
      { line: 3, column: 16 },
      { line: 4, column: 19 },
      { line: 5, column: 11 },
    ]);
  });

  test("gives the LSP position in the negotiated encoding", () => {
    const last = wordOccurrences("Base", lines, "utf-16").at(-1)!;
    // "const 🙂 = " is 9 code points and 10 UTF-16 units.
    expect(last.lsp).toEqual({ line: 4, character: 11 });
    expect(wordOccurrences("Base", lines, "utf-8").at(-1)!.lsp).toEqual({ line: 4, character: 13 });
  });
});

describe("tokenOccurrences", () => {
  const legend = { tokenTypes: ["class", "comment", "string", "variable"], tokenModifiers: [] };
  // Base (class) on line 0; "Base" as a comment token on line 1 and as a string token on line 2
  // (a server may classify words there); Base (class) and Basement (variable) on line 3.
  const data = [0, 9, 4, 0, 0, 1, 3, 4, 1, 0, 1, 15, 4, 2, 0, 1, 18, 4, 0, 0, 0, 14, 8, 3, 0];
  const tokens = decodeSemanticTokens(data, legend);

  test("decodes LSP's relative encoding", () => {
    expect(tokens.map((t) => [t.start.line, t.start.character, t.length, t.type])).toEqual([
      [0, 9, 4, "class"],
      [1, 3, 4, "comment"],
      [2, 15, 4, "string"],
      [3, 18, 4, "class"],
      [3, 32, 8, "variable"],
    ]);
  });

  test("keeps the name tokens that spell the name exactly, never comments or strings", () => {
    expect(tokenOccurrences(tokens, "Base", lines, "utf-16").map((o) => o.at)).toEqual([
      { line: 1, column: 10 },
      { line: 4, column: 19 },
    ]);
    expect(tokenOccurrences(tokens, "Basement", lines, "utf-16").map((o) => o.at)).toEqual([{ line: 4, column: 33 }]);
  });
});

describe("groupBySameDefinition", () => {
  const target = (uri: string, line: number) => ({ uri, line, character: 0 });

  test("occurrences sharing a definition target are one thing, in order of their first occurrence", () => {
    const groups = groupBySameDefinition(
      ["import", "use", "other", "overload-use", "comment"],
      [[target("base", 1)], [target("base", 1)], [target("app", 9)], [target("app", 9), target("app", 12)], []],
    );
    expect(groups).toEqual([
      ["import", "use"],
      ["other", "overload-use"],
    ]);
  });

  test("sharing is transitive: a chain of shared targets is one thing", () => {
    expect(groupBySameDefinition(["a", "b", "c"], [[target("x", 1)], [target("x", 1), target("y", 2)], [target("y", 2)]])).toEqual([["a", "b", "c"]]);
    expect(groupBySameDefinition(["a", "b"], [[target("x", 1)], [target("y", 1)]])).toEqual([["a"], ["b"]]);
  });

  test("occurrences with no definition are left out", () => {
    expect(groupBySameDefinition(["comment", "string"], [[], []])).toEqual([]);
  });
});
