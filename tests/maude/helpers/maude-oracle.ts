/**
 * The tests' own reading of maude, written apart from the server's (servers/maude/src) so that a
 * bug in its flags or its stderr parser cannot hide: maude run as CONTRACT §7 says (with
 * `-no-wrap`, as docs/contributors/contract-notes.md says), and every `Warning:` line of its stderr read with
 * the continuation lines that follow it.
 */
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";

/** CONTRACT §7's flags. */
export const CONTRACT_FLAGS = ["-no-banner", "-no-advise", "-no-ansi-color", "-no-tecla", "-batch"];
/** With `-no-wrap` (docs/contributors/contract-notes.md): a message is not cut at 80 columns onto a second line. */
const FLAGS = [...CONTRACT_FLAGS, "-no-wrap"];

/** One warning: the file maude named (null for its standard input), the line, the message. */
export interface OracleWarning {
  readonly file: string | null;
  readonly line: number;
  readonly message: string;
}

// `Warning: "f.maude", line 6 (fmod M): text`, the context and the space before the colon
// optional; binary input is named `<standard input>`.
const WARNING = /^Warning: (?:"([^"]+)"|<standard input>), line (\d+)(?: \(.*?\))? ?: (.*)$/;

/** Runs /usr/bin/maude with FLAGS on `file` (absolute) in its folder, stdin closed, and reads its warnings. */
export function maudeWarnings(file: string): OracleWarning[] {
  const run = spawnSync("/usr/bin/maude", [...FLAGS, file], {
    cwd: dirname(file),
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    timeout: 30_000,
  });
  if (run.status !== 0) throw new Error(`maude exited with ${String(run.status)} on ${file}: ${run.stderr}`);
  const warnings: { file: string | null; line: number; lines: string[] }[] = [];
  for (const raw of run.stderr.split("\n")) {
    const text = raw.trimEnd();
    const head = WARNING.exec(text);
    if (head) warnings.push({ file: head[1] ?? null, line: Number(head[2]), lines: [head[3]!] });
    else if (text !== "") {
      // A line that is no warning of its own continues the last one (the statement, the marker).
      const last = warnings.at(-1);
      if (!last) throw new Error(`maude wrote a line before any warning: ${text}`);
      last.lines.push(text);
    }
  }
  return warnings.map((w) => ({ file: w.file, line: w.line, message: w.lines.join("\n") }));
}
