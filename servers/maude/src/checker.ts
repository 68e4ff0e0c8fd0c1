/**
 * One check of one document: prepare the input, run maude, parse its stderr, decide the
 * outcome, and turn it into LSP diagnostics per file. Never rejects: whatever goes wrong becomes
 * the one `error` diagnostic on line 1.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver/node";
import { prepareCheckInput, type CheckInput } from "./check-input.js";
import { collectLoadedFiles } from "./load-graph.js";
import { attributeWarnings, classifyRun, type CheckFailure } from "./outcome.js";
import { runMaude } from "./run-maude.js";
import { parseMaudeStderr } from "./stderr-parser.js";
import { WarningLocator } from "./token-range.js";

/** The document text a check is about. `version` is null for a document that is not open. */
export interface DocumentSnapshot {
  readonly uri: string;
  readonly version: number | null;
  readonly text: string;
}

/** The options a check needs (a subset of the server options). */
interface CheckerConfig {
  readonly maudePath: string;
  readonly timeoutMs: number;
}

/** The result of one check; `version` is the snapshot's, for publishing. */
export interface CheckReport {
  readonly uri: string;
  readonly version: number | null;
  /** Diagnostics per URI: always the document's own (maybe empty), plus loaded files with warnings. */
  readonly diagnostics: Map<string, Diagnostic[]>;
  readonly failure: CheckFailure | null;
  /** Stderr lines that were neither warnings nor their continuations. */
  readonly otherStderr: string[];
  readonly durationMs: number;
}

const SOURCE = "maude";

/** Checks one document snapshot with a fresh maude process. */
export async function checkDocument(snap: DocumentSnapshot, config: CheckerConfig): Promise<CheckReport> {
  const started = performance.now();
  const path = snap.uri.startsWith("file:") ? safeFilePath(snap.uri) : null;
  const locator = new WarningLocator(snap.text);
  const report = (diagnostics: Map<string, Diagnostic[]>, failure: CheckFailure | null, otherStderr: string[]): CheckReport => ({
    uri: snap.uri,
    version: snap.version,
    diagnostics,
    failure,
    otherStderr,
    durationMs: performance.now() - started,
  });
  const failed = (failure: CheckFailure, others: Diagnostic[] = []): CheckReport =>
    report(new Map([[snap.uri, [...others, failureDiagnostic(failure, locator)]]]), failure, []);

  // NUL never occurs in Maude text; running maude on such bytes only yields noise per byte.
  if (snap.text.includes("\u0000")) {
    return failed({ code: "maude/binary", message: "the file is binary (it contains NUL bytes); maude was not run" });
  }
  let input: CheckInput;
  try {
    input = prepareCheckInput(path, snap.text);
  } catch (err) {
    return failed({ code: "maude/unreadable", message: `could not prepare a copy for maude: ${String(err)}` });
  }
  try {
    const running = runMaude({ maudePath: config.maudePath, file: input.file, cwd: input.cwd, timeoutMs: config.timeoutMs });
    // Following the load directives costs a few file reads; do it while maude runs.
    const mainPath = path ?? input.file;
    const byBase = collectLoadedFiles(mainPath, snap.text, readTextOrNull);
    const run = await running;
    const parsed = parseMaudeStderr(unTemp(run.stderr, input, path));
    const failure = classifyRun(run, parsed, config.timeoutMs);
    const diagnostics = new Map<string, Diagnostic[]>();
    for (const [file, warnings] of attributeWarnings(parsed.warnings, mainPath, byBase)) {
      const isMain = file === mainPath;
      const loc = isMain ? locator : new WarningLocator(readTextOrNull(file) ?? "");
      const diags = warnings.map((w) => warningDiagnostic(loc, w.line, w.message));
      diagnostics.set(isMain ? snap.uri : pathToFileURL(file).href, diags);
    }
    if (failure !== null) diagnostics.get(snap.uri)?.push(failureDiagnostic(failure, locator));
    const other = run.stderrTruncated ? [...parsed.other, "(stderr truncated)"] : parsed.other;
    return report(diagnostics, failure, other);
  } catch (err) {
    return failed({ code: "maude/internal", message: `the check failed: ${String(err)}` });
  } finally {
    input.cleanup();
  }
}

function warningDiagnostic(loc: WarningLocator, line: number, message: string): Diagnostic {
  return { range: loc.rangeFor(line, message), severity: DiagnosticSeverity.Warning, source: SOURCE, message };
}

function failureDiagnostic(failure: CheckFailure, loc: WarningLocator): Diagnostic {
  return { range: loc.firstLine(), severity: DiagnosticSeverity.Error, source: SOURCE, code: failure.code, message: failure.message };
}

// Maude may print the copy's path; people should see their own folder instead.
function unTemp(stderr: string, input: CheckInput, path: string | null): string {
  if (input.tempDir === null || path === null) return stderr;
  return stderr.split(input.tempDir).join(input.cwd);
}

function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function safeFilePath(uri: string): string | null {
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

/** The single error for a document whose file cannot be read at all. */
export function unreadableDiagnostics(reason: string): Diagnostic[] {
  return [failureDiagnostic({ code: "maude/unreadable", message: `the file cannot be read: ${reason}` }, new WarningLocator(""))];
}
