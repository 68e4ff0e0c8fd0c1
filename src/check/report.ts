import type { ResolvedConfig } from "../config/types.js";
import { compareStrings } from "../contract/compare.js";
import { compareDiagnostics, type BridgeDiagnostic } from "../contract/diagnostic-order.js";
import { severityRank, type SeverityName } from "../contract/names.js";
import { fingerprint, lineContents } from "./fingerprint.js";
import type { CheckRun } from "./run-check.js";

/**
 * A diagnostic as `check` reports it: the `diagnostics` tool's item, placed (workspace, server)
 * and fingerprinted. It leaves out `channels`: which channel answered first depends on timing,
 * and a CI report must be byte-identical for the same inputs (CONTRACT §5).
 */
export interface Finding {
  readonly workspace: string;
  readonly server: string;
  readonly path: string;
  readonly range: BridgeDiagnostic["range"];
  readonly severity: SeverityName;
  readonly code: string | null;
  readonly source: string | null;
  readonly message: string;
  /** See `fingerprint`: what a baseline matches on. */
  readonly fingerprint: string;
  /** null without `--baseline`; "unchanged" when the baseline holds this finding. */
  readonly baseline_state: "new" | "unchanged" | null;
}

/** One (workspace, server) session that checked files: a SARIF run. */
export interface ReportRun {
  readonly workspace: string;
  readonly root: string;
  readonly server: string;
  /** The pin the server was checked against. */
  readonly version: string;
  readonly files: number;
}

/** `--fail-on`: the least severe finding that fails the run, or "never". */
export type FailOn = SeverityName | "never";

export interface CheckSummary {
  readonly files: number;
  readonly errors: number;
  readonly warnings: number;
  readonly information: number;
  readonly hints: number;
  readonly fail_on: FailOn;
  /** Findings at or above `fail_on` that are not in the baseline: the run fails when > 0. */
  readonly failing: number;
  /** Findings the baseline holds, or null without `--baseline`. */
  readonly baselined: number | null;
  readonly runs: readonly ReportRun[];
}

export interface CheckReport {
  /** Workspace (configuration order), then the canonical diagnostic order. */
  readonly findings: readonly Finding[];
  readonly summary: CheckSummary;
}

/** Fingerprint → how many findings with it the baseline accepts. */
export type Baseline = ReadonlyMap<string, number>;

/**
 * Builds the report of a finished run. With a baseline, each fingerprint there accepts as many
 * findings as it had, taken in report order; the rest are "new". Only findings that are not in
 * the baseline and are at or above `failOn` count as failing.
 */
export function buildReport(config: ResolvedConfig, run: CheckRun, failOn: FailOn, baseline: Baseline | null): CheckReport {
  const workspaceRank = new Map(config.workspaces.map((workspace, i) => [workspace.name, i]));
  const placed = run.files.flatMap((result) => {
    const lines = result.diagnostics.length > 0 ? lineContents(result.text) : [];
    return result.diagnostics.map((diagnostic) => ({ workspace: result.workspace.name, server: result.server.name, diagnostic, line: lines[diagnostic.range.start.line - 1] ?? "" }));
  });
  // Two servers on one diagnostic position is rare (one server per file); name order keeps it total.
  placed.sort((a, b) => workspaceRank.get(a.workspace)! - workspaceRank.get(b.workspace)! || compareDiagnostics(a.diagnostic, b.diagnostic) || compareStrings(a.server, b.server));
  const remaining = new Map(baseline ?? []);
  const findings = placed.map(({ workspace, server, diagnostic: d, line }): Finding => {
    const print = fingerprint({ workspace, path: d.path, code: d.code, message: d.message, line });
    const accepted = remaining.get(print) ?? 0;
    if (accepted > 0) remaining.set(print, accepted - 1);
    const state = baseline === null ? null : accepted > 0 ? "unchanged" : "new";
    return { workspace, server, path: d.path, range: d.range, severity: d.severity, code: d.code, source: d.source, message: d.message, fingerprint: print, baseline_state: state };
  });
  const count = (severity: SeverityName) => findings.filter((finding) => finding.severity === severity).length;
  const threshold = failOn === "never" ? 0 : severityRank(failOn);
  return {
    findings,
    summary: {
      files: run.files.length,
      errors: count("error"),
      warnings: count("warning"),
      information: count("information"),
      hints: count("hint"),
      fail_on: failOn,
      failing: findings.filter((f) => f.baseline_state !== "unchanged" && severityRank(f.severity) <= threshold).length,
      baselined: baseline === null ? null : findings.filter((f) => f.baseline_state === "unchanged").length,
      runs: run.sessions.map((session) => ({
        workspace: session.workspace.name,
        root: session.workspace.root,
        server: session.server.name,
        version: session.server.version,
        files: session.files,
      })),
    },
  };
}
