import { isAbsolute, join, relative } from "node:path";
import type { CheckReport, Finding } from "../diagnostics/findings/report.js";
import { escapeText } from "../contract/escape-text.js";

/**
 * The compiler-style report: `path:line:column: severity: message [source code]`, one finding
 * per line in report order, a message's further lines indented below it, then one summary line.
 * Paths are relative to `cwd` (where the user ran `check`), so editors and CI annotations can
 * open them. Findings the baseline holds are left out of the list and counted in the summary.
 * With `--since`, every finding is listed and marked `(introduced)` or `(unchanged)`, and the
 * summary counts the three kinds, the resolved ones included. A file its server did not check at
 * all is listed as such (`path: not checked by SERVER: why`), never as a finding.
 */
export function formatText(report: CheckReport, cwd: string): string {
  const roots = new Map(report.summary.runs.map((run) => [run.workspace, run.root]));
  const lines = report.findings
    .filter((finding) => finding.baseline_state !== "unchanged")
    .flatMap((finding) => findingLines(finding, pathFromCwd(cwd, roots.get(finding.workspace), finding.path)));
  const notChecked = (report.summary.not_checked ?? []).map(
    (file) => `${pathFromCwd(cwd, roots.get(file.workspace), file.path)}: not checked by ${file.server}: ${file.reason}`,
  );
  // Paths, messages and reasons come from the checkout and its servers: each line shown escaped.
  return [...lines, ...notChecked, ...toolchainLines(report), summaryLine(report)].map(escapeText).join("\n") + "\n";
}

function findingLines(finding: Finding, path: string): string[] {
  const tag = [finding.source, finding.code].filter((part) => part !== null).join(" ");
  const [first = "", ...rest] = finding.message.split("\n");
  const { line, column } = finding.range.start;
  const mark = finding.since_state === undefined ? "" : ` (${finding.since_state})`;
  return [`${path}:${line}:${column}: ${finding.severity}: ${first}${tag ? ` [${tag}]` : ""}${mark}`, ...rest.map(indented)];
}

/** A message's further line, indented; a blank one stays empty (no trailing spaces in a report). */
function indented(line: string): string {
  return line === "" ? "" : `    ${line}`;
}

/**
 * Where a server ran several toolchains (packages on their own TypeScript), which answered which
 * project folders: "typescript answered web with TypeScript 5.9.3 (web/node_modules/typescript)".
 */
function toolchainLines({ summary }: CheckReport): string[] {
  const pair = (run: (typeof summary.runs)[number]) => `${run.workspace}\0${run.server}`;
  const counts = new Map<string, number>();
  for (const run of summary.runs) counts.set(pair(run), (counts.get(pair(run)) ?? 0) + 1);
  const several = summary.runs.some((run) => (counts.get(pair(run)) ?? 0) > 1);
  return summary.runs.flatMap((run) => {
    const toolchain = run.toolchain;
    if (toolchain === null || (counts.get(pair(run)) ?? 0) < 2) return [];
    const where = several && summary.runs.some((other) => other.workspace !== run.workspace) ? ` in ${run.workspace}` : "";
    const folders = toolchain.folders.map((folder) => folder || ".").join(", ") || ".";
    return [`${run.server}${where} answered ${folders} with ${toolchain.title} ${toolchain.version} (${toolchain.path})`];
  });
}

function summaryLine({ summary }: CheckReport): string {
  const counts = [
    plural(summary.errors, "error", "errors"),
    plural(summary.warnings, "warning", "warnings"),
    `${summary.information} information`,
    plural(summary.hints, "hint", "hints"),
  ].join(", ");
  const baseline = summary.baselined === null ? "" : `; ${summary.baselined} in the baseline`;
  const notChecked = summary.not_checked === undefined ? "" : `; ${plural(summary.not_checked.length, "file", "files")} not checked`;
  const outsideCount = summary.runs.reduce((sum, run) => sum + (run.outside_projects ?? 0), 0);
  const outside = outsideCount === 0 ? "" : `; ${plural(outsideCount, "file", "files")} outside any project (the toolchain's defaults)`;
  const since = summary.since;
  const changes =
    since === undefined
      ? ""
      : `; since ${since.revision} (${since.commit.slice(0, 12)}): ${since.introduced} introduced, ${since.unchanged} unchanged, ${since.resolved} resolved`;
  const verdict = summary.fail_on === "never" ? "never failing" : `${summary.failing} at or above ${summary.fail_on}`;
  return `${plural(summary.files, "file", "files")} checked: ${counts}${baseline}${changes}${notChecked}${outside}; ${verdict}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function pathFromCwd(cwd: string, root: string | undefined, path: string): string {
  if (root === undefined) return path;
  const shown = relative(cwd, join(root, path));
  return isAbsolute(shown) || shown === "" ? join(root, path) : shown;
}
