/**
 * A lexer for Maude source text. It knows Maude's token rules (special characters, backquote
 * escapes, `***` / `---` comments, strings) and nothing about modules or LSP. It never throws:
 * every input yields tokens plus a list of lexical problems.
 */
import { TextDocument } from "vscode-languageserver-textdocument";

/** A zero-based position counted in UTF-16 code units, as LSP's default encoding counts. */
interface TextPosition {
  readonly line: number;
  readonly character: number;
}

/** A half-open range of {@link TextPosition}s. */
export interface TextRange {
  readonly start: TextPosition;
  readonly end: TextPosition;
}

/** One token; `start`/`end` are UTF-16 offsets into the text, `line`/`character` its LSP position. */
export interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly character: number;
}

/** A lexical problem (unterminated comment or string); not a Maude diagnostic. */
interface LexError {
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Tokens in text order, the problems met on the way, and the text as an LSP document, which maps
 * offsets to positions the way LSP counts lines (`\n`, `\r\n` and a lone `\r` each end one).
 */
export interface LexResult {
  readonly tokens: Token[];
  readonly errors: LexError[];
  readonly document: TextDocument;
}

// Maude splits these out as tokens of their own unless escaped with a backquote.
const SPECIAL = new Set(["(", ")", "[", "]", "{", "}", ","]);

function isSpace(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f" || ch === "\v";
}

/** Splits Maude text into tokens. Total: any string in, a result out. */
export function lexMaude(text: string): LexResult {
  const document = TextDocument.create("", "maude", 0, text);
  const tokens: Token[] = [];
  const errors: LexError[] = [];
  const push = (start: number, end: number): void => {
    const pos = document.positionAt(start);
    tokens.push({ text: text.slice(start, end), start, end, line: pos.line, character: pos.character });
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] ?? "";
    if (isSpace(ch)) {
      i++;
      continue;
    }
    if (text.startsWith("***", i) || text.startsWith("---", i)) {
      i = skipComment(text, i, errors);
      continue;
    }
    if (ch === '"') {
      const end = scanString(text, i, errors);
      push(i, end);
      i = end;
      continue;
    }
    if (SPECIAL.has(ch)) {
      push(i, i + 1);
      i++;
      continue;
    }
    const start = i;
    while (i < n) {
      const c = text[i] ?? "";
      if (c === "`" && i + 1 < n && !isSpace(text[i + 1] ?? " ")) {
        i += 2; // A backquote makes the next character part of the identifier.
        continue;
      }
      if (isSpace(c) || SPECIAL.has(c)) break;
      i++;
    }
    // Maude reads "Foo." before whitespace as "Foo" plus the statement's period (with a warning).
    if (i - start > 1 && text[i - 1] === "." && (i === n || isSpace(text[i] ?? ""))) {
      push(start, i - 1);
      push(i - 1, i);
    } else {
      push(start, i);
    }
  }
  return { tokens, errors, document };
}

// `***(` / `---(` open a comment that ends at the matching `)`; otherwise it runs to end of line.
function skipComment(text: string, at: number, errors: LexError[]): number {
  let i = at + 3;
  if (text[i] !== "(") {
    const nl = text.indexOf("\n", i);
    return nl < 0 ? text.length : nl + 1;
  }
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  errors.push({ message: "unterminated multi-line comment", start: at, end: text.length });
  return text.length;
}

// Strings end at an unescaped quote; Maude strings cannot span lines.
function scanString(text: string, at: number, errors: LexError[]): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i + 1;
    else if (c === "\n") {
      errors.push({ message: "unterminated string", start: at, end: i });
      return i;
    }
  }
  errors.push({ message: "unterminated string", start: at, end: text.length });
  return text.length;
}
