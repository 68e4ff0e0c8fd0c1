import { RUN_TOOLCHAIN_FIELD } from "../contract/toolchain-fields.js";
import type { CheckReport } from "../diagnostics/findings/report.js";

/**
 * The machine-readable report, and the format `--baseline` reads back: `items` are the
 * `diagnostics` tool's items with `workspace` and `server` in front, `fingerprint` and
 * `baseline_state` behind (and `since_state` with `--since`, whose resolved findings are listed
 * apart as `resolved`), and without `channels` (see `Finding`); `summary` has the counts, the threshold and one entry per session
 * that checked files, and `not_checked` the files a server did not check at all (when there are
 * some). Two-space indented, keys in a fixed order, so equal runs give equal bytes.
 */
export function formatJson(report: CheckReport): string {
  const { summary } = report;
  const document = {
    items: report.findings,
    ...(report.resolved === undefined ? {} : { resolved: report.resolved }),
    summary: {
      files: summary.files,
      errors: summary.errors,
      warnings: summary.warnings,
      information: summary.information,
      hints: summary.hints,
      fail_on: summary.fail_on,
      failing: summary.failing,
      baselined: summary.baselined,
      ...(summary.since === undefined ? {} : { since: summary.since }),
      ...(summary.not_checked === undefined ? {} : { not_checked: summary.not_checked }),
      // Roots are left out: they are machine-specific, and a baseline must travel between machines.
      runs: summary.runs.map(({ workspace, server, version, toolchain, files, outside_projects }) => ({
        workspace,
        server,
        version,
        [RUN_TOOLCHAIN_FIELD]:
          toolchain === null ? null : { version: toolchain.version, source: toolchain.source, path: toolchain.path, folders: toolchain.folders },
        files,
        ...(outside_projects === undefined ? {} : { outside_projects }),
      })),
    },
  };
  return JSON.stringify(document, null, 2) + "\n";
}
