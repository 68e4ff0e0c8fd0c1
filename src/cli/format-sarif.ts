import { pathToFileURL } from "node:url";
import type { SeverityName } from "../contract/names.js";
import type { NotCheckedFile } from "../diagnostics/findings/not-checked-files.js";
import type { CheckReport, Finding, ReportRun } from "../diagnostics/findings/report.js";
import type { Shard } from "../diagnostics/findings/shard-spec.js";

const SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/** The base every artifact URI is relative to: the run's workspace root. */
const ROOT_BASE = "%SRCROOT%";
const FINGERPRINT_KEY = "lspmcp/v1";

// SARIF has no "hint"; "note" is its least severe level that still shows.
const LEVELS: Record<SeverityName, "error" | "warning" | "note"> = { error: "error", warning: "warning", information: "note", hint: "note" };

/**
 * SARIF 2.1.0: one run per (workspace, server) session that checked files, in report order.
 * `tool.driver` is the server's configured name and pinned version, its rules are the distinct
 * diagnostic codes (sorted), and each result has a `physicalLocation` whose artifact URI is
 * relative to the workspace root (`uriBaseId` %SRCROOT%, defined in `originalUriBaseIds`) and
 * whose region is 1-based, columns in code points (`columnKind: unicodeCodePoints`) as
 * everywhere in lspmcp. With a baseline, each result carries its `baselineState`; with `--since`
 * too (`new` for introduced, `unchanged`), and each resolved finding is a result of its own with
 * `baselineState: absent`, located where it was at the revision. With a
 * shard, `automationDetails.id` names it (`lspmcp/WORKSPACE/SERVER/shard-K-of-N/`), so that code
 * scanning keeps the N uploads side by side (one category each) instead of each replacing the last.
 */
export function formatSarif(report: CheckReport, shard: Shard | null = null): string {
  const withBaseline = report.summary.baselined !== null || report.summary.since !== undefined;
  const all = [...report.findings, ...(report.resolved ?? [])];
  const pairOf = (run: { workspace: string; server: string }) => JSON.stringify([run.workspace, run.server]);
  const runsOfPair = new Map<string, ReportRun[]>();
  for (const run of report.summary.runs) runsOfPair.set(pairOf(run), [...(runsOfPair.get(pairOf(run)) ?? []), run]);
  // A server with several toolchains has a run per toolchain: each finding goes to the run that
  // answered its file; a file none answered (its toolchain not run), to the pair's first run.
  const runOf = (item: { workspace: string; server: string; path: string }) => {
    const pair = runsOfPair.get(pairOf(item)) ?? [];
    return pair.find((run) => run.paths.includes(item.path)) ?? pair[0];
  };
  const runs = report.summary.runs.map((run) =>
    sarifRun(
      run,
      all.filter((f) => runOf(f) === run),
      (report.summary.not_checked ?? []).filter((file) => runOf(file) === run),
      withBaseline,
      shard,
      (runsOfPair.get(pairOf(run))?.length ?? 1) > 1,
    ),
  );
  return JSON.stringify({ $schema: SARIF_SCHEMA, version: "2.1.0", runs }, null, 2) + "\n";
}

function sarifRun(
  run: ReportRun,
  findings: readonly Finding[],
  notChecked: readonly NotCheckedFile[],
  withBaseline: boolean,
  shard: Shard | null,
  oneOfSeveral: boolean,
): Record<string, unknown> {
  const codes = [...new Set(findings.map((f) => f.code).filter((code): code is string => code !== null))].sort();
  const paths = [...new Set(findings.map((f) => f.path))].sort();
  const answered = run.toolchain;
  // The toolchain that answered, and the project folders it answered.
  const fullName =
    answered === null
      ? {}
      : {
          fullName: `${run.server} (${answered.title} ${answered.version}, ${answered.path}: ${answered.folders.map((folder) => folder || ".").join(", ") || "."})`,
        };
  // Several toolchains of one server are runs of their own, each its own category.
  const toolchain = oneOfSeveral && answered !== null ? `${answered.path}/` : "";
  return {
    tool: { driver: { name: run.server, ...fullName, version: run.version, rules: codes.map((id) => ({ id })) } },
    automationDetails: { id: `lspmcp/${run.workspace}/${run.server}/${toolchain}${shard === null ? "" : `shard-${shard.index}-of-${shard.count}/`}` },
    originalUriBaseIds: { [ROOT_BASE]: { uri: rootUri(run.root), description: { text: `root of workspace ${run.workspace}` } } },
    columnKind: "unicodeCodePoints",
    artifacts: paths.map((path) => ({ location: artifactLocation(path) })),
    // A file the server did not check is a note about the run, not a result (no finding).
    ...(notChecked.length === 0
      ? {}
      : {
          invocations: [
            {
              executionSuccessful: true,
              toolExecutionNotifications: notChecked.map((file) => ({
                level: "note",
                message: { text: `not checked: ${file.reason}` },
                locations: [{ physicalLocation: { artifactLocation: artifactLocation(file.path) } }],
              })),
            },
          ],
        }),
    results: findings.map((finding) => ({
      ...(finding.code === null ? {} : { ruleId: finding.code, ruleIndex: codes.indexOf(finding.code) }),
      level: LEVELS[finding.severity],
      message: { text: finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { ...artifactLocation(finding.path), index: paths.indexOf(finding.path) },
            region: {
              startLine: finding.range.start.line,
              startColumn: finding.range.start.column,
              endLine: finding.range.end.line,
              endColumn: finding.range.end.column,
            },
          },
        },
      ],
      partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
      ...(withBaseline ? { baselineState: baselineState(finding) } : {}),
      properties: { severity: finding.severity, source: finding.source },
    })),
  };
}

/** SARIF's words: a finding introduced since the revision is `new`, a resolved one `absent`. */
function baselineState(finding: Finding): "new" | "unchanged" | "absent" | null {
  if (finding.since_state === undefined) return finding.baseline_state;
  return finding.since_state === "introduced" ? "new" : finding.since_state === "resolved" ? "absent" : "unchanged";
}

/** Path segments are percent-encoded so that a space or "#" in a file name stays a valid URI reference. */
function artifactLocation(path: string): { uri: string; uriBaseId: string } {
  return { uri: path.split("/").map(encodeURIComponent).join("/"), uriBaseId: ROOT_BASE };
}

/** SARIF requires a base URI to end with "/". */
function rootUri(root: string): string {
  const uri = pathToFileURL(root).href;
  return uri.endsWith("/") ? uri : `${uri}/`;
}
