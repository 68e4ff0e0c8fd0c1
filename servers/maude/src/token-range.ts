/**
 * Where on its line a warning points. Maude reports lines, not columns, but many messages name
 * the offending token; when that token occurs on the reported line the range covers it, and
 * otherwise the whole (trimmed) line. Pure and total.
 */
import { lexMaude, type LexResult, type TextRange, type Token } from "./lexer.js";

// Message shapes that name a token, from Maude 3.2's strings.
const TOKEN_PATTERNS: readonly RegExp[] = [
  /^bad token (.+)\.$/,
  /^didn't expect token (.+):$/,
  /^skipped unexpected token: (.+)$/,
  /^undeclared sort (.+)\.$/,
  /^missing space between (\S+) and period\.$/,
  /^no module (\S+)\.$/,
  /^module (\S+) does not exist\.$/,
];

const HERE_MARKER = " <---*HERE*";

/** The token a warning message names, or null. Only the message's first line is considered. */
export function namedToken(message: string): string | null {
  // Maude wraps long messages onto indented lines; the statement echo that may follow is not indented.
  const first = message.replace(/\n[ \t]+/g, " ").split("\n", 1)[0] ?? "";
  for (const re of TOKEN_PATTERNS) {
    const m = re.exec(first);
    if (m?.[1] !== undefined && m[1] !== "") return m[1];
  }
  return null;
}

/** Ranges for warnings in one document; lexes the text once for all of its warnings. */
export class WarningLocator {
  private readonly lex: LexResult;
  // Index of the first token on each line (or of the next token after it), so that a file with
  // many warnings costs one lex plus a lookup per warning, not a scan per warning.
  private readonly firstOnLine: number[];

  constructor(text: string) {
    this.lex = lexMaude(text);
    this.firstOnLine = new Array<number>(this.lex.lines.lineCount + 1);
    let k = 0;
    for (let line = 0; line <= this.lex.lines.lineCount; line++) {
      while (k < this.lex.tokens.length && (this.lex.tokens[k] as Token).line < line) k++;
      this.firstOnLine[line] = k;
    }
  }

  /** The range for a warning on one-based `line` with `message`; lines past the end clamp. */
  rangeFor(line: number, message: string): TextRange {
    const lines = this.lex.lines;
    const zero = Math.max(0, Math.min(line - 1, lines.lineCount - 1));
    const token = namedToken(message);
    if (token !== null) {
      const hit = this.findToken(zero, token, occurrenceFromMarker(message, token));
      if (hit !== undefined) {
        return { start: { line: zero, character: hit.character }, end: { line: zero, character: hit.character + hit.text.length } };
      }
    }
    return wholeLine(zero, lines.lineText(zero));
  }

  /** Range of the first line, for whole-file errors. */
  firstLine(): TextRange {
    return wholeLine(0, this.lex.lines.lineText(0));
  }

  // The occurrence on `line`: the k-th of the statement when Maude's HERE marker says which.
  private findToken(line: number, token: string, occurrence: number | null): Token | undefined {
    const toks = this.lex.tokens;
    const from = this.firstOnLine[line] ?? toks.length;
    const to = this.firstOnLine[line + 1] ?? toks.length;
    const onLine = toks.slice(from, to).filter((t) => t.text === token);
    if (onLine.length <= 1 || occurrence === null) return onLine[0];
    // The statement starts after the last period before this line.
    let start = from;
    while (start > 0 && (toks[start - 1] as Token).text !== ".") start--;
    let seen = 0;
    for (let k = start; k < to; k++) {
      const t = toks[k] as Token;
      if (t.text !== token) continue;
      seen++;
      if (seen === occurrence) return t.line === line ? t : onLine[0];
    }
    return onLine[0];
  }
}

// `eq g ( N ) = N N <---*HERE*`: the offending token is the k-th `N` of the statement.
function occurrenceFromMarker(message: string, token: string): number | null {
  const marker = message.split("\n").find((l) => l.endsWith(HERE_MARKER));
  if (marker === undefined) return null;
  const count = marker.slice(0, -HERE_MARKER.length).split(/\s+/).filter((w) => w === token).length;
  return count > 0 ? count : null;
}

function wholeLine(line: number, text: string): TextRange {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return { start: { line, character: end > start ? start : 0 }, end: { line, character: end > start ? end : text.length } };
}
