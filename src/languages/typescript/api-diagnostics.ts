import { type Diagnostic, DiagnosticSeverity } from "vscode-languageserver-protocol";
import type { PositionEncoding } from "../../contract/positions.js";

/**
 * A diagnostic as TypeScript 7's API session gives it: offsets in UTF-16 code units into the text
 * the server read, the compiler's category, the head of the message and its chain apart.
 */
export interface ApiDiagnostic {
  readonly fileName: string;
  readonly pos: number;
  readonly end: number;
  readonly code: number;
  readonly category: number;
  readonly text: string;
  readonly messageChain?: readonly ApiDiagnostic[] | null;
}

/**
 * The codes the server's pull reports as warnings instead of errors when its
 * `reportStyleChecksAsWarnings` preference is on (unused names and imports, unreachable code, an
 * unused label, a fallthrough, a missing return). The API does not apply the preference: a file
 * with one of them as an error is answered by its pull, which knows the setting.
 */
const STYLE_CHECKS: ReadonlySet<number> = new Set([6133, 6138, 6192, 6196, 7027, 7028, 7029, 7030]);

/** The compiler's category (warning 0, error 1, suggestion 2, message 3) as the pull's severity. */
const SEVERITY: Readonly<Record<number, DiagnosticSeverity>> = {
  0: DiagnosticSeverity.Warning,
  1: DiagnosticSeverity.Error,
  2: DiagnosticSeverity.Hint,
  3: DiagnosticSeverity.Information,
};

/**
 * One file's API diagnostics as the server's pull gives them to lspmcp, in the same order:
 * offsets (always UTF-16) turned into lines and characters of `text` (the text the server read),
 * counted in `encoding` (the one the server negotiated, which its pull counts in), the
 * message chain flattened as the pull flattens it, source "ts". lspmcp declares neither tags nor
 * related information for pulls, so they carry neither. Null when one of them is a style check
 * reported as an error (`STYLE_CHECKS`), or its category or offsets are none the pull knows.
 */
export function pullForm(text: string, diagnostics: readonly ApiDiagnostic[], encoding: PositionEncoding): Diagnostic[] | null {
  // The compiler reads a file without its byte order mark.
  const read = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const starts = lineStarts(read);
  const position = (offset: number) => positionOf(read, starts, offset, encoding);
  const converted: Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const severity = SEVERITY[diagnostic.category];
    if (severity === undefined || (severity === DiagnosticSeverity.Error && STYLE_CHECKS.has(diagnostic.code))) return null;
    if (!(diagnostic.pos >= 0 && diagnostic.end >= diagnostic.pos && diagnostic.end <= read.length)) return null;
    converted.push({
      range: { start: position(diagnostic.pos), end: position(diagnostic.end) },
      severity,
      code: diagnostic.code,
      source: "ts",
      message: flattenMessage(diagnostic),
    });
  }
  return converted;
}

/** The head of the message, then each link of its chain on a line of its own, two spaces deeper per level. */
export function flattenMessage(diagnostic: ApiDiagnostic, level = 0): string {
  const head = level === 0 ? diagnostic.text : `\n${"  ".repeat(level)}${diagnostic.text}`;
  return head + (diagnostic.messageChain ?? []).map((link) => flattenMessage(link, level + 1)).join("");
}

/** Where each line of `text` starts, in UTF-16 units: lines break at "\n", "\r\n" and "\r" only, as LSP counts them. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    if (unit === 0x0a || unit === 0x0d) starts.push(i + 1);
  }
  return starts;
}

/** The line and character (counted in `encoding`) of the UTF-16 `offset` into `text`, whose lines start at `starts`. */
function positionOf(text: string, starts: readonly number[], offset: number, encoding: PositionEncoding): { line: number; character: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  const before = text.slice(starts[low], offset);
  const character = encoding === "utf-16" ? before.length : encoding === "utf-8" ? Buffer.byteLength(before, "utf8") : [...before].length;
  return { line: low, character };
}
