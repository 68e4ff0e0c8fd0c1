import type { ResolvedConfig } from "../../config/types.js";
import { lineContents } from "./fingerprint.js";
import { mergeServerDiagnostics, type BridgeDiagnostic } from "../../contract/diagnostic-order.js";
import type { SeverityName } from "../../contract/names.js";
import type { SinceAnswers } from "../since/diagnose-since.js";
import { splitSince, type PlacedDiagnostic, type SinceSplit } from "./match-findings.js";

export type SinceResult = SinceSplit<PlacedDiagnostic>;

/**
 * The `diagnostics` tool's view of a since run: in each workspace (configuration order) the
 * servers' answers merged as without `since` (an identical finding from two servers once), in
 * canonical order, only the severities `keep` accepts, then split into introduced, unchanged and
 * resolved by `splitSince`.
 */
export function placeFindings(config: ResolvedConfig, answers: SinceAnswers, keep: (severity: SeverityName) => boolean): SinceResult {
  const current: PlacedDiagnostic[] = [];
  const revision: PlacedDiagnostic[] = [];
  for (const workspace of config.workspaces) {
    const now = answers.current.filter((answer) => answer.workspace === workspace);
    const texts = new Map<string, string[]>();
    for (const answer of now) if (answer.diagnostics.length > 0 && !texts.has(answer.file.path)) texts.set(answer.file.path, lineContents(answer.text));
    for (const diagnostic of kept(
      now.map((answer) => answer.diagnostics),
      keep,
    )) {
      current.push({ workspace: workspace.name, diagnostic, line: texts.get(diagnostic.path)?.[diagnostic.range.start.line - 1] ?? "" });
    }
    const then = answers.revision.filter((file) => file.workspace === workspace);
    const lines = new Map<string, string>();
    for (const file of then) for (const [line, text] of file.answer.lines) lines.set(`${file.path}\0${line}`, text);
    // The revision's answers carry their paths in the snapshot, which are the paths at the revision.
    for (const diagnostic of kept(
      then.map((file) => file.answer.diagnostics),
      keep,
    )) {
      revision.push({ workspace: workspace.name, diagnostic, line: lines.get(`${diagnostic.path}\0${diagnostic.range.start.line}`) ?? "" });
    }
  }
  return splitSince(current, revision, answers.currentPath);
}

function kept(answers: readonly (readonly BridgeDiagnostic[])[], keep: (severity: SeverityName) => boolean): BridgeDiagnostic[] {
  return mergeServerDiagnostics(answers).filter((diagnostic) => keep(diagnostic.severity));
}
