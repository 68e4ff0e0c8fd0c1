/**
 * From one maude run to findings per file. Pure: the tri-state outcome (clean, warnings,
 * unrecoverable) is decided here, from the run's exit and its parsed stderr.
 */
import type { MaudeRun } from "./run-maude.js";
import type { MaudeWarning, ParsedStderr } from "./stderr-parser.js";

/** Why a check could not be done; each is the `code` of the one `error` diagnostic. */
type FailureCode = "maude/crashed" | "maude/timeout" | "maude/unreadable" | "maude/binary" | "maude/failed" | "maude/spawn-failed" | "maude/internal";

/** An unrecoverable check: its code and a message that says what happened. */
export interface CheckFailure {
  readonly code: FailureCode;
  readonly message: string;
}

/** One warning, placed on a one-based line of a file. */
interface FileWarning {
  readonly line: number;
  readonly message: string;
}

/** Decides whether the run was unrecoverable, and why. Null means Maude processed the file. */
export function classifyRun(run: MaudeRun, parsed: ParsedStderr, timeoutMs: number): CheckFailure | null {
  if (run.spawnError !== null) return { code: "maude/spawn-failed", message: `maude could not be started: ${run.spawnError.message}` };
  if (run.timedOut) {
    return {
      code: "maude/timeout",
      message: `maude did not finish within ${timeoutMs} ms (a reduction that does not terminate?); its process group was killed`,
    };
  }
  const tail = parsed.other.length > 0 ? `: ${parsed.other.slice(-3).join(" | ")}` : "";
  if (run.signal !== null) return { code: "maude/crashed", message: `maude was killed by signal ${run.signal}${tail}` };
  if (run.exitCode !== 0) return { code: "maude/failed", message: `maude exited with code ${String(run.exitCode)}${tail}` };
  const fatal = parsed.fatal[0];
  if (fatal !== undefined) return { code: "maude/unreadable", message: `maude could not read the file: ${fatal}` };
  return null;
}

/**
 * Places warnings on files. `byBase` maps the base names Maude prints to absolute paths;
 * `<standard input>` and the main file's own name go to `mainPath`. A warning about a file the
 * server could not find goes on line 1 of the main file, with the place Maude named kept in front.
 */
export function attributeWarnings(warnings: readonly MaudeWarning[], mainPath: string, byBase: ReadonlyMap<string, string>): Map<string, FileWarning[]> {
  const out = new Map<string, FileWarning[]>([[mainPath, []]]);
  const add = (path: string, w: FileWarning): void => {
    const list = out.get(path);
    if (list === undefined) out.set(path, [w]);
    else list.push(w);
  };
  for (const w of warnings) {
    const target = w.file === null ? mainPath : byBase.get(w.file);
    if (target !== undefined) add(target, { line: Math.max(1, w.line), message: w.message });
    else add(mainPath, { line: 1, message: `"${w.file ?? ""}", line ${w.line}: ${w.message}` });
  }
  return out;
}
