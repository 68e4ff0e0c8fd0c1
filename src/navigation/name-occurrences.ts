import type { Position } from "vscode-languageserver-protocol";
import type { BridgePosition, LineIndex, PositionEncoding } from "../contract/positions.js";
import type { SemanticToken } from "../lsp/features/semantic-tokens.js";

/** Where a name occurs, in both coordinate systems. */
export interface Occurrence {
  readonly at: BridgePosition;
  readonly lsp: Position;
}

// Token types that are not names: a word inside one of them is not a use of a symbol.
const NOT_A_NAME = new Set(["comment", "string", "number", "regexp", "operator", "keyword", "modifier"]);

/**
 * The tokens that spell `name` exactly and that the server classifies as a name (not a comment,
 * string, number, keyword or operator), in document order.
 */
export function tokenOccurrences(tokens: readonly SemanticToken[], name: string, lines: LineIndex, encoding: PositionEncoding): Occurrence[] {
  const found: Occurrence[] = [];
  for (const token of tokens) {
    if (NOT_A_NAME.has(token.type) || token.start.line >= lines.lineCount) continue;
    const at = lines.fromLsp(token.start, encoding);
    const end = lines.fromLsp({ line: token.start.line, character: token.start.character + token.length }, encoding);
    const text = [...lines.lineText(at.line)].slice(at.column - 1, end.column - 1).join("");
    if (text === name) found.push({ at, lsp: token.start });
  }
  return found.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
}

// Letters, marks, digits, connector punctuation (`_`) and `$`: what continues a name in the
// languages lspmcp serves. Only used to find where a word starts and ends; whether a spot is code
// is the server's to say (semantic tokens, or a definition answer).
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}\p{Pc}$]/u;

/**
 * Every whole-word occurrence of `name` in the text, in document order: the text before and after
 * it does not continue the word (when `name` itself starts or ends with a word character).
 */
export function wordOccurrences(name: string, lines: LineIndex, encoding: PositionEncoding): Occurrence[] {
  const found: Occurrence[] = [];
  const points = [...name];
  const checkBefore = WORD_CHARACTER.test(points[0] ?? "");
  const checkAfter = WORD_CHARACTER.test(points.at(-1) ?? "");
  for (let line = 1; line <= lines.lineCount; line++) {
    const text = lines.lineText(line);
    for (let index = text.indexOf(name); index >= 0; index = text.indexOf(name, index + 1)) {
      const before = [...text.slice(0, index)];
      if (checkBefore && WORD_CHARACTER.test(before.at(-1) ?? "")) continue;
      if (checkAfter && WORD_CHARACTER.test(String.fromCodePoint(text.codePointAt(index + name.length) ?? 32))) continue;
      const at = { line, column: before.length + 1 };
      found.push({ at, lsp: lines.toLsp(at, encoding) });
    }
  }
  return found;
}

/** A definition target, reduced to what tells two targets apart: file and name position. */
interface DefinitionKey {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
}

/**
 * Groups occurrences that name the same thing: two occurrences are one thing when their
 * definition answers share a target (an import and a use of the class it imports both lead to
 * the class; an overloaded function's uses share its overloads). Occurrences with no definition
 * are left out. Groups are in order of their first occurrence, each group's occurrences in
 * document order.
 */
export function groupBySameDefinition<T>(occurrences: readonly T[], definitions: readonly (readonly DefinitionKey[])[]): T[][] {
  const parent = occurrences.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const owner = new Map<string, number>();
  definitions.forEach((targets, i) => {
    for (const target of targets) {
      const key = `${target.uri}\u0000${target.line}\u0000${target.character}`;
      const seen = owner.get(key);
      if (seen === undefined) owner.set(key, i);
      else {
        // The earlier occurrence's root stays the root, so a group is keyed by its first member.
        const [a, b] = [root(seen), root(i)];
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  });
  const groups = new Map<number, T[]>();
  occurrences.forEach((occurrence, i) => {
    if (definitions[i]!.length === 0) return;
    const key = root(i);
    const group = groups.get(key);
    if (group) group.push(occurrence);
    else groups.set(key, [occurrence]);
  });
  return [...groups.values()];
}
