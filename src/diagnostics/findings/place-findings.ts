import type { ResolvedConfig } from "../../config/types.js";
import { mergeServerDiagnostics } from "../../contract/diagnostic-order.js";
import type { SeverityName } from "../../contract/names.js";
import type { FileDiagnostics } from "../run/file-diagnostics.js";
import type { RevisionFile, SinceAnswers } from "../since/diagnose-since.js";
import { startLines } from "./fingerprint.js";
import { splitSince, type PlacedDiagnostic, type SinceSplit } from "./match-findings.js";

/** A finding placed: its workspace, the server that found it, and its start line's content. */
export interface ServerFinding extends PlacedDiagnostic {
  readonly server: string;
}

/**
 * The one place findings get their workspace and line text: every diagnostic of the working
 * tree's answers, in answer order, with the content of its start line in the text the server saw.
 */
export function placeCurrent(files: readonly FileDiagnostics[]): ServerFinding[] {
  return files.flatMap((file) => placed(file.workspace.name, file.server.name, file.diagnostics, startLines(file)));
}

/** `placeCurrent` for the revision's answers, each at its path then, with the line content kept with the answer. */
export function placeRevision(files: readonly RevisionFile[]): ServerFinding[] {
  return files.flatMap((file) => placed(file.workspace.name, file.server.name, file.answer.diagnostics, file.answer.lines));
}

function placed(
  workspace: string,
  server: string,
  diagnostics: readonly PlacedDiagnostic["diagnostic"][],
  lines: ReadonlyMap<number, string>,
): ServerFinding[] {
  return diagnostics.map((diagnostic) => ({ workspace, server, diagnostic, line: lines.get(diagnostic.range.start.line) ?? "" }));
}

/**
 * The `diagnostics` tool's view of a since run: in each workspace (configuration order) the
 * servers' placed findings merged as without `since` (an identical finding from two servers once),
 * in canonical order, only the severities `keep` accepts, then split into introduced, unchanged
 * and resolved by `splitSince`.
 */
export function splitMerged(config: ResolvedConfig, answers: SinceAnswers, keep: (severity: SeverityName) => boolean): SinceSplit<PlacedDiagnostic> {
  const current = merged(config, placeCurrent(answers.current.files), keep);
  // The revision's answers carry their paths in the snapshot, which are the paths at the revision.
  const revision = merged(config, placeRevision(answers.revision), keep);
  return splitSince(current, revision, answers.currentPath);
}

/**
 * `splitMerged` for a preview of changes (CONTRACT §4.4): the scope on disk against the scope with
 * the changes, matched in place (a path is the same file before and after). Findings `counted`
 * refuses (a source that could not see the changes) are left out of all three lists.
 */
export function splitPreview(
  config: ResolvedConfig,
  before: readonly FileDiagnostics[],
  after: readonly FileDiagnostics[],
  keep: (severity: SeverityName) => boolean,
  counted: (finding: ServerFinding) => boolean,
): SinceSplit<PlacedDiagnostic> {
  const now = merged(config, placeCurrent(after).filter(counted), keep);
  const then = merged(config, placeCurrent(before).filter(counted), keep);
  return splitSince(now, then, (_workspace, path) => path);
}

/** Per workspace, each (server, file) answer's findings merged across servers; a merged finding keeps its line. */
function merged(config: ResolvedConfig, findings: readonly ServerFinding[], keep: (severity: SeverityName) => boolean): PlacedDiagnostic[] {
  const result: PlacedDiagnostic[] = [];
  for (const workspace of config.workspaces) {
    const answers = new Map<string, PlacedDiagnostic["diagnostic"][]>();
    const lines = new Map<string, string>();
    for (const finding of findings) {
      if (finding.workspace !== workspace.name) continue;
      const { diagnostic } = finding;
      const answer = JSON.stringify([finding.server, diagnostic.path]);
      answers.set(answer, [...(answers.get(answer) ?? []), diagnostic]);
      lines.set(`${diagnostic.path}\0${diagnostic.range.start.line}`, finding.line);
    }
    for (const diagnostic of mergeServerDiagnostics([...answers.values()])) {
      if (keep(diagnostic.severity))
        result.push({ workspace: workspace.name, diagnostic, line: lines.get(`${diagnostic.path}\0${diagnostic.range.start.line}`) ?? "" });
    }
  }
  return result;
}
