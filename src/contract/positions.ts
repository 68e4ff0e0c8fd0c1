import type { Position, Range } from "vscode-languageserver-protocol";
import { BridgeError } from "./errors.js";

/** The position encodings of LSP 3.17 (`general.positionEncodings`); LSP's default is utf-16. */
export type PositionEncoding = "utf-8" | "utf-16" | "utf-32";

/**
 * A position as the bridge shows it (CONTRACT §4): 1-based `line`, 1-based `column` counted in
 * Unicode code points. Key order is `line`, `column`.
 */
export interface BridgePosition {
  line: number;
  column: number;
}

/** A range of two bridge positions; `end` is exclusive, as in LSP. Key order is `start`, `end`. */
export interface BridgeRange {
  start: BridgePosition;
  end: BridgePosition;
}

/**
 * Converts positions of one document text between the bridge's 1-based code-point positions and
 * LSP positions in a negotiated encoding.
 *
 * Lines end at `\n`, `\r\n` or `\r`, as LSP says; a text with N terminators has N + 1 lines (so an
 * empty text has one empty line). Line starts are indexed once in the constructor; a conversion
 * scans only the line it touches. A lone surrogate in the text counts as one code point (one
 * UTF-16 unit, three UTF-8 bytes — its U+FFFD replacement on the wire).
 */
export class LineIndex {
  /** Number of lines, at least 1. */
  readonly lineCount: number;
  readonly #text: string;
  // UTF-16 offset of each line's first unit, and of the end of its content (before the terminator).
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];

  constructor(text: string) {
    this.#text = text;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit !== 10 && unit !== 13) continue;
      this.#starts.push(start);
      this.#ends.push(i);
      if (unit === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.#starts.push(start);
    this.#ends.push(text.length);
    this.lineCount = this.#starts.length;
  }

  /**
   * The LSP position of a bridge position. Throws `BridgeError("InvalidArguments")` with details
   * `{ line, column, line_count, line_length }` when the position is not inside the document:
   * line outside 1..lineCount, column outside 1..(code points on the line + 1), or a non-integer.
   * `line_length` is in code points (null when the line itself is invalid).
   */
  toLsp(pos: BridgePosition, enc: PositionEncoding): Position {
    const { line, column } = pos;
    if (!Number.isInteger(line) || line < 1 || line > this.lineCount) {
      throw new BridgeError("InvalidArguments", `line ${line} is outside the document, which has ${this.lineCount} lines`, {
        line,
        column,
        line_count: this.lineCount,
        line_length: null,
      });
    }
    const text = this.#lineText(line - 1);
    const wanted = Number.isInteger(column) && column >= 1 ? column - 1 : -1;
    let units = 0;
    let points = 0;
    let i = 0;
    while (points < wanted && i < text.length) {
      units += unitWidth(text, i, enc);
      i += step(text, i);
      points++;
    }
    if (points !== wanted) {
      const length = this.#codePoints(line - 1);
      throw new BridgeError("InvalidArguments", `column ${column} is outside line ${line}, which has ${length} characters (columns 1..${length + 1})`, {
        line,
        column,
        line_count: this.lineCount,
        line_length: length,
      });
    }
    return { line: line - 1, character: units };
  }

  /**
   * The bridge position of a server's LSP position. Never throws: a line past the document goes to
   * the end of the document, a character past the line's end goes to the line's end (as LSP says),
   * negative numbers and NaN go to 0, and an offset inside a character (between the two
   * units of a surrogate pair, or inside a UTF-8 sequence) goes to that character's start.
   */
  fromLsp(pos: Position, enc: PositionEncoding): BridgePosition {
    const line = toCount(pos.line);
    if (line >= this.lineCount) {
      const last = this.lineCount - 1;
      return { line: last + 1, column: this.#codePoints(last) + 1 };
    }
    const target = toCount(pos.character);
    const lineText = this.#lineText(line);
    let units = 0;
    let points = 0;
    let i = 0;
    while (i < lineText.length) {
      const width = unitWidth(lineText, i, enc);
      if (units + width > target) break;
      units += width;
      i += step(lineText, i);
      points++;
    }
    return { line: line + 1, column: points + 1 };
  }

  /**
   * `fromLsp` on both ends. Never throws; an end that would fall before the start after clamping
   * is set to the start, so a bridge range is never inverted.
   */
  rangeFromLsp(r: Range, enc: PositionEncoding): BridgeRange {
    const start = this.fromLsp(r.start, enc);
    const end = this.fromLsp(r.end, enc);
    const inverted = end.line < start.line || (end.line === start.line && end.column < start.column);
    return { start, end: inverted ? { line: start.line, column: start.column } : end };
  }

  /** `toLsp` on both ends; throws as `toLsp` does. */
  rangeToLsp(r: BridgeRange, enc: PositionEncoding): Range {
    return { start: this.toLsp(r.start, enc), end: this.toLsp(r.end, enc) };
  }

  /** Code points on a 1-based line, terminator excluded; throws `InvalidArguments` for a bad line. */
  lineLength(line: number): number {
    if (!Number.isInteger(line) || line < 1 || line > this.lineCount) {
      throw new BridgeError("InvalidArguments", `line ${line} is outside the document, which has ${this.lineCount} lines`, {
        line,
        line_count: this.lineCount,
      });
    }
    return this.#codePoints(line - 1);
  }

  /** The text of a 1-based line without its terminator; throws `InvalidArguments` for a bad line. */
  lineText(line: number): string {
    this.lineLength(line);
    return this.#lineText(line - 1);
  }

  #lineText(line0: number): string {
    return this.#text.slice(this.#starts[line0], this.#ends[line0]);
  }

  #codePoints(line0: number): number {
    const text = this.#lineText(line0);
    let points = 0;
    for (let i = 0; i < text.length; i += step(text, i)) points++;
    return points;
  }
}

// A surrogate pair is one code point; a lone surrogate counts as one code point of its own.
function step(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  return unit >= 0xd800 && unit <= 0xdbff && isLow(text, i + 1) ? 2 : 1;
}

function isLow(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Width, in units of `enc`, of the code point starting at UTF-16 index `i`: utf-32 counts code
 * points, utf-16 counts units (a pair is 2), utf-8 counts bytes (a pair is 4).
 */
function unitWidth(text: string, i: number, enc: PositionEncoding): number {
  const unit = text.charCodeAt(i);
  const pair = unit >= 0xd800 && unit <= 0xdbff && isLow(text, i + 1);
  if (enc === "utf-32") return 1;
  if (enc === "utf-16") return pair ? 2 : 1;
  if (pair) return 4;
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return 3;
}

// Server numbers are untrusted: negatives, NaN and fractions must not break the walk; +Infinity
// is simply "past the end".
function toCount(n: number): number {
  if (n === Number.POSITIVE_INFINITY) return Number.MAX_SAFE_INTEGER;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}
