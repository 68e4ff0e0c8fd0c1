import type { ResolvedConfig } from "../../config/types.js";
import { compareStrings } from "../../contract/compare.js";
import { compareDiagnostics, type BridgeDiagnostic } from "../../contract/diagnostic-order.js";
import { severityRank, type SeverityName } from "../../contract/names.js";
import type { SinceAnswers } from "../since/diagnose-since.js";
import { matchEqualKeys } from "./match-equal-keys.js";
import { splitSince } from "./match-findings.js";
import { fingerprint } from "./fingerprint.js";
import { notCheckedFiles, type NotCheckedFile } from "./not-checked-files.js";
import { placeCurrent, placeRevision, type ServerFinding } from "./place-findings.js";
import type { DiagnosticsRun, RunToolchain } from "../run/run-check.js";

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
  /**
   * Only with `--since`: whether the finding is new since the revision, or was there already
   * (`resolved` for one of the revision's that is gone, reported where it was then).
   */
  readonly since_state?: "introduced" | "unchanged" | "resolved";
}

/** With `--since`: the revision and the counts of the three kinds of findings. */
interface SinceSummary {
  readonly revision: string;
  readonly commit: string;
  readonly introduced: number;
  readonly unchanged: number;
  readonly resolved: number;
}

/** One (workspace, server) session that checked files: a SARIF run. */
export interface ReportRun {
  readonly workspace: string;
  readonly root: string;
  readonly server: string;
  /** The version that answered: the toolchain's (one the workspace may bring), else the server's, checked against its pin. */
  readonly version: string;
  /**
   * The toolchain that answered, where it came from (`workspace` or `pinned`), its package folder
   * and the project folders it answers; null for other servers. Each toolchain of a server is a
   * run of its own.
   */
  readonly toolchain: RunToolchain | null;
  readonly files: number;
  /** The files the run answered (relative to the root), to place each finding in its run. */
  readonly paths: readonly string[];
  /** Only when there are some: files no project includes, answered under the toolchain's defaults (TypeScript 7). */
  readonly outside_projects?: number;
}

/** `--fail-on`: the least severe finding that fails the run, or "never". */
type FailOn = SeverityName | "never";

interface CheckSummary {
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
  /** Only with `--since`. */
  readonly since?: SinceSummary;
  /** Only when there are some: files a server did not check (gopls: build constraints leave them out). */
  readonly not_checked?: readonly NotCheckedFile[];
  readonly runs: readonly ReportRun[];
}

export interface CheckReport {
  /** Workspace (configuration order), then the canonical diagnostic order. */
  readonly findings: readonly Finding[];
  /** Only with `--since`: the revision's findings that are gone, at their place then, in the same order. */
  readonly resolved?: readonly Finding[];
  readonly summary: CheckSummary;
}

/** The fingerprints of a baseline's findings, in its order: each accepts one finding of now. */
export type Baseline = readonly string[];

/**
 * Builds the report of a finished run. With a baseline, a finding is "unchanged" when it is one
 * of the baseline's by fingerprint (`matchEqualKeys`: the k-th finding with a fingerprint in
 * report order is the baseline's k-th with it); the rest are "new". With `since` (the answers of the
 * revision's snapshot), findings are matched as the `diagnostics` tool matches them (CONTRACT
 * §4.3): each is "introduced" or "unchanged", and the revision's unmatched ones are listed apart as
 * "resolved". Only findings that are neither in the baseline nor unchanged since the revision and
 * are at or above `failOn` count as failing.
 */
export function buildReport(
  config: ResolvedConfig,
  run: DiagnosticsRun,
  failOn: FailOn,
  baseline: Baseline | null,
  since: SinceAnswers | null = null,
): CheckReport {
  const workspaceRank = new Map(config.workspaces.map((workspace, i) => [workspace.name, i]));
  const order = (a: ServerFinding, b: ServerFinding) =>
    workspaceRank.get(a.workspace)! - workspaceRank.get(b.workspace)! || compareDiagnostics(a.diagnostic, b.diagnostic) || compareStrings(a.server, b.server);
  // Two servers on one diagnostic position is rare (one server per file); name order keeps it total.
  const placed = placeCurrent(run.files).sort(order);
  const then = placeRevision(since?.revision ?? []).sort(order);
  const split = since === null ? null : splitSince(placed, then, since.currentPath);
  const introduced = new Set(split?.introduced ?? []);
  const printOf = ({ workspace, diagnostic: d, line }: ServerFinding) => fingerprint({ workspace, path: d.path, code: d.code, message: d.message, line });
  // Fingerprinted once: the baseline matches on them, and the report carries them.
  const prints = placed.map(printOf);
  const held = baseline === null ? null : matchEqualKeys(prints, baseline).partnerOf.map((partner) => partner !== -1);
  const finding = ({ workspace, server, diagnostic: d }: ServerFinding, print: string, state: Finding["since_state"], inBaseline: boolean): Finding => {
    const baselineState: Finding["baseline_state"] = held === null ? null : inBaseline ? "unchanged" : "new";
    const base = {
      workspace,
      server,
      path: d.path,
      range: d.range,
      severity: d.severity,
      code: d.code,
      source: d.source,
      message: d.message,
      fingerprint: print,
      baseline_state: baselineState,
    };
    return state === undefined ? base : { ...base, since_state: state };
  };
  const findings = placed.map((item, index) =>
    finding(item, prints[index]!, split === null ? undefined : introduced.has(item) ? "introduced" : "unchanged", held?.[index] ?? false),
  );
  // A resolved finding is gone from now, so no baseline holds it.
  const resolved = split?.resolved.map((item) => finding(item, printOf(item), "resolved", false));
  const count = (severity: SeverityName) => findings.filter((finding) => finding.severity === severity).length;
  // Sorted by workspace after the builder's path order, which the stable sort keeps within each.
  const notChecked = notCheckedFiles(run.files).sort((a, b) => workspaceRank.get(a.workspace)! - workspaceRank.get(b.workspace)!);
  const threshold = failOn === "never" ? 0 : severityRank(failOn);
  const old = (f: Finding) => f.baseline_state === "unchanged" || f.since_state === "unchanged";
  return {
    findings,
    ...(resolved === undefined ? {} : { resolved }),
    summary: {
      // Files, as the diagnostics tool counts them: a file that two servers checked (pyright and
      // ruff) is one file; `runs` counts each server's.
      files: new Set(run.files.map((result) => `${result.workspace.name}\0${result.file.path}`)).size,
      errors: count("error"),
      warnings: count("warning"),
      information: count("information"),
      hints: count("hint"),
      fail_on: failOn,
      failing: findings.filter((f) => !old(f) && severityRank(f.severity) <= threshold).length,
      baselined: baseline === null ? null : findings.filter((f) => f.baseline_state === "unchanged").length,
      ...(since === null || split === null
        ? {}
        : {
            since: {
              revision: since.since.revision,
              commit: since.since.commit,
              introduced: split.introduced.length,
              unchanged: split.unchanged.length,
              resolved: split.resolved.length,
            },
          }),
      ...(notChecked.length === 0 ? {} : { not_checked: notChecked }),
      runs: run.sessions.map((session) => {
        const outside = run.files.filter(
          (result) => result.workspace === session.workspace && result.server === session.server && result.project === null,
        ).length;
        return {
          workspace: session.workspace.name,
          root: session.workspace.root,
          server: session.server.name,
          version: session.version,
          toolchain: session.toolchain,
          files: session.files,
          paths: run.files.filter((result) => result.workspace === session.workspace && result.server === session.server).map((result) => result.file.path),
          ...(outside === 0 ? {} : { outside_projects: outside }),
        };
      }),
    },
  };
}
