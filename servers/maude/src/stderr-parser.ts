/**
 * Parses what `maude` writes to stderr into warnings. Pure: text in, values out, never throws.
 *
 * Maude 3.2 writes each warning as `Warning: "<file>", line N (<context>): message` (the context
 * and the space before the colon are optional), or `Warning: <standard input>, line N: ...`. The
 * lines after a warning that are not another header (the offending statement, a `<---*HERE*`
 * marker, a wrapped long message) belong to it. `Warning: <command line>: ...` is about the
 * command itself (a file that cannot be opened), so it is reported as a fatal notice. Any other
 * `Warning: text` carries no place, so it becomes a warning on line 1 of the checked file rather
 * than being lost.
 */

/** One `Warning:` with its continuation lines. */
export interface MaudeWarning {
  /** The file name as Maude printed it (a base name), or null for `<standard input>`. */
  readonly file: string | null;
  /** One-based line number. */
  readonly line: number;
  /** The parenthesised context, e.g. `fmod GREETING`, or null. */
  readonly context: string | null;
  /** Text after the `line N (context): ` prefix; continuation lines follow, each after `\n`. */
  readonly message: string;
}

export interface ParsedStderr {
  readonly warnings: MaudeWarning[];
  /** Warnings about the command line (`unable to locate file: ...`): nothing was checked. */
  readonly fatal: string[];
  /** Every other non-blank line, kept for the server's stderr tail. */
  readonly other: string[];
}

const FILE_WARNING = /^Warning: (?:"(.*)"|<standard input>), line (\d+)(?: \((.*?)\))? ?: ?(.*)$/;
const COMMAND_LINE_WARNING = /^Warning: <command line>: ?(.*)$/;
const PLACELESS_WARNING = /^Warning: ?(.*)$/;
// Lines that start something new rather than continue the previous warning.
const HEADER = /^(?:Warning|Advisory|Error|Fatal error|Maude internal error)\b|^fatal /i;

/** Parses Maude's complete stderr output. */
export function parseMaudeStderr(stderr: string): ParsedStderr {
  const warnings: MaudeWarning[] = [];
  const fatal: string[] = [];
  const other: string[] = [];
  let open: { file: string | null; line: number; context: string | null; parts: string[] } | null = null;
  const close = (): void => {
    if (open !== null) warnings.push({ file: open.file, line: open.line, context: open.context, message: open.parts.join("\n") });
    open = null;
  };
  for (const rawLine of stderr.split("\n")) {
    const line = rawLine.replace(/\s+$/, "");
    if (line.trim() === "") continue; // Blank lines carry nothing and are dropped.
    const m = FILE_WARNING.exec(line);
    if (m !== null) {
      close();
      open = { file: m[1] ?? null, line: Number(m[2]), context: m[3] ?? null, parts: [m[4] ?? ""] };
      continue;
    }
    if (HEADER.test(line)) {
      close();
      const cmd = COMMAND_LINE_WARNING.exec(line);
      const placeless = cmd === null ? PLACELESS_WARNING.exec(line) : null;
      if (cmd !== null) fatal.push(cmd[1] ?? "");
      else if (placeless !== null) open = { file: null, line: 1, context: null, parts: [placeless[1] ?? ""] };
      else other.push(line);
      continue;
    }
    if (open !== null) (open as { parts: string[] }).parts.push(line);
    else other.push(line);
  }
  close();
  return { warnings, fatal, other };
}
