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

/**
 * Ranges for warnings in one document; lexes the text once for all of its warnings. Maude numbers
 * lines by `\n` alone, while LSP also ends a line at a lone `\r`: a warning's line is found by
 * Maude's count, and its range is given in LSP positions (from the lexer's document).
 */
export class WarningLocator {
  private readonly lex: LexResult;
  private readonly text: string;
  /** Offset at which each of Maude's lines starts. */
  private readonly maudeLineStarts: number[] = [0];
  // Index of the first token on each Maude line (or of the next token after it), so that a file
  // with many warnings costs one lex plus a lookup per warning, not a scan per warning.
  private readonly firstOnLine: number[];

  constructor(text: string) {
    this.lex = lexMaude(text);
    this.text = text;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.maudeLineStarts.push(i + 1);
    this.firstOnLine = [];
    let k = 0;
    for (const start of [...this.maudeLineStarts, Infinity]) {
      while (k < this.lex.tokens.length && (this.lex.tokens[k] as Token).start < start) k++;
      this.firstOnLine.push(k);
    }
  }

  /** The range for a warning on Maude's one-based `line` with `message`; lines past the end clamp. */
  rangeFor(line: number, message: string): TextRange {
    const zero = Math.max(0, Math.min(line - 1, this.maudeLineStarts.length - 1));
    const token = namedToken(message);
    if (token !== null) {
      const hit = this.findToken(zero, token, occurrenceFromMarker(message, token));
      if (hit !== undefined) return this.range(hit.start, hit.end);
    }
    return this.wholeLine(zero);
  }

  /** Range of the first line, for whole-file errors. */
  firstLine(): TextRange {
    return this.wholeLine(0);
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
      if (seen === occurrence) return k >= from ? t : onLine[0];
    }
    return onLine[0];
  }

  // The line without its break, trimmed; a blank line is covered whole.
  private wholeLine(line: number): TextRange {
    const start = this.maudeLineStarts[line] ?? 0;
    const next = this.maudeLineStarts[line + 1];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > start && this.text[end - 1] === "\r") end--;
    const raw = this.text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmedEnd = raw.trimEnd().length;
    return trimmedEnd > lead ? this.range(start + lead, start + trimmedEnd) : this.range(start, end);
  }

  private range(start: number, end: number): TextRange {
    return { start: this.lex.document.positionAt(start), end: this.lex.document.positionAt(end) };
  }
}

// `eq g ( N ) = N N <---*HERE*`: the offending token is the k-th `N` of the statement.
function occurrenceFromMarker(message: string, token: string): number | null {
  const marker = message.split("\n").find((l) => l.endsWith(HERE_MARKER));
  if (marker === undefined) return null;
  const count = marker
    .slice(0, -HERE_MARKER.length)
    .split(/\s+/)
    .filter((w) => w === token).length;
  return count > 0 ? count : null;
}
