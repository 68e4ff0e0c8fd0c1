/**
 * Text from outside lspmcp (a configuration's key names and values, paths, a server's messages)
 * as it may be printed to a terminal: every character that a terminal acts on rather than shows
 * is written as an escape, so that such text cannot erase, move over or rewrite what lspmcp
 * prints around it. Escaped: the C0 controls but tab (ESC, CR, BEL, backspace, newline…), DEL, the
 * C1 controls (a lone CSI, U+009B, starts an escape sequence too), and the invisible characters
 * that reorder or break a line (bidirectional overrides and isolates, the line and paragraph
 * separators). Each becomes `\xHH` (below U+0100) or `\u{HHHH}`.
 */

/** The characters a terminal acts on, or that make a line read otherwise than it is. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const ACTIVE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every active character written as an escape; the result is one line. */
export function escapeText(text: string): string {
  return text.replace(ACTIVE, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/** `text` escaped line by line: its newlines stay (a message of several lines), nothing else active does. */
export function escapeLines(text: string): string {
  return text.split("\n").map(escapeText).join("\n");
}
