import { readBaseline, writeBaseline } from "../diagnostics/findings/baseline.js";
import { discoverTargets } from "../targets/discover-targets.js";
import { formatJson } from "./format-json.js";
import { formatSarif } from "./format-sarif.js";
import { formatText } from "./format-text.js";
import { ProgressLine } from "./progress-line.js";
import { inShard, pathInShard } from "../diagnostics/findings/shard.js";
import { buildReport, type CheckReport } from "../diagnostics/findings/report.js";
import { runCheck, type DiagnosticsRun } from "../diagnostics/run/run-check.js";
import { diagnoseSince, type SinceAnswers } from "../diagnostics/since/diagnose-since.js";
import { configSourceFor, describeConfig } from "../config/config-source.js";
import { answeringClause, projectRootsIn } from "../languages/index.js";
import { restrictedMode } from "../config/restricted-mode.js";
import { judgeConfig, requireTrusted, trustContextFor } from "../config/config-trust.js";
import { asBridgeError, BridgeError, isCallersFault } from "../contract/errors.js";
import { SessionRegistry } from "../sessions/session-registry.js";
import { discardPrestarted, prestartSupervisor, sweepOrphans } from "../supervision/index.js";
import { sweepSnapshotsOf } from "../diagnostics/since/revision-snapshot.js";
import type { Command } from "./parse-args.js";
import { createStderrLogger } from "./stderr-logger.js";
import { escapeLines, escapeText } from "../contract/escape-text.js";

type CheckCommand = Extract<Command, { kind: "check" }>;

/** Exit codes of `check` (CONTRACT §2). */
const CHECK_EXIT = { clean: 0, findings: 1, usage: 2, serverFailed: 3 } as const;

/**
 * `lspmcp check`: the CI gate. Resolves with the exit code and never rejects, except with
 * `ConfigInvalid` or `ConfigUntrusted` (before anything of the config ran), which `main` reports
 * like every other command does. stdout carries only the report, and only for a run that
 * completed: a server that failed to start, died or did not settle gives exit 3 and the reason on
 * stderr, never a report that could read as clean.
 */
export async function check(command: CheckCommand, cwd: string = process.cwd()): Promise<number> {
  // Off a terminal or with --quiet, stderr stays quiet unless something is wrong.
  const level = process.env.LSPMCP_LOG_LEVEL ?? (command.quiet ? "error" : "warn");
  const logger = createStderrLogger({ ...process.env, LSPMCP_LOG_LEVEL: level });
  const source = configSourceFor(command.config, cwd);
  const config = requireTrusted(await judgeConfig(source, trustContextFor(command.config, source, command.trustConfig, cwd), projectRootsIn));
  // Its first session's supervisor starts its Node now, once nothing stops the config from
  // running (a refused check starts no process at all), beside discovery rather than after it;
  // `closeSessions` ends it if no session takes it.
  prestartSupervisor();
  // Named on stderr when the user did not name it; --quiet keeps stderr for problems only.
  if (command.config === null && !command.quiet) process.stderr.write(`lspmcp: ${escapeLines(describeConfig(config, answeringClause))}\n`);
  // Said whatever the config: a compiler the config line names may then not run at all.
  if (restrictedMode() && !command.quiet)
    process.stderr.write("lspmcp: restricted mode: none of the checkout's own code runs; a file whose answer needs it is listed as not checked\n");
  let sessions: SessionRegistry | null = null;
  let closing: Promise<void> | null = null;
  const closeSessions = (): Promise<void> => (closing ??= Promise.all([sessions?.closeAll(), discardPrestarted()]).then(() => {}));
  let interrupted: string | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupted = signal;
    void closeSessions();
  };
  const progress = new ProgressLine(process.stderr, !command.quiet);
  try {
    const baseline = command.baseline === null ? null : await readBaseline(command.baseline);
    // The sweep reads /proc while discovery's git runs: neither needs the other, and only trees of
    // dead bridges are reaped, never one this run starts.
    const discovering = discoverTargets(config, command.paths, cwd);
    const swept = sweepOrphans((message, fields) => logger.info(message, fields));
    const [discovered] = await Promise.all([discovering, swept]);
    const shard = command.shard;
    const targets = shard === null ? discovered.targets : discovered.targets.filter((target) => inShard(target, shard));
    await sweepSnapshotsOf(config, (message, fields) => logger.info(message, fields));
    sessions = new SessionRegistry(config, logger);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, onSignal);
    const onProgress = (done: number, total: number, session: string) => progress.update(done, total, session);
    let run: DiagnosticsRun;
    let since: SinceAnswers | null = null;
    if (command.since === null) run = await runCheck(config, sessions, targets, { batchSize: command.batchSize, onProgress, listings: discovered.listings });
    else {
      since = await diagnoseSince(
        config,
        sessions,
        { targets, scope: discovered.scope, listings: discovered.listings },
        {
          revision: command.since,
          batchSize: command.batchSize,
          ...(shard === null ? {} : { keep: (workspace, path) => pathInShard(workspace.name, path, shard) }),
          onFileDone: (done, total, target) => onProgress(done, total, `${target.workspace.name}/${target.server.name}`),
          workingTree: "stop-and-report",
        },
      );
      run = since.current;
    }
    progress.clear();
    for (const session of run.sessions) {
      logger.info("check session done", {
        session: `${session.workspace.name}/${session.server.name}`,
        files: session.files,
        peak_open_documents: session.peakOpenDocuments,
        open_documents_at_end: session.openDocumentsAtEnd,
        batch_size: command.batchSize,
      });
    }
    const report = buildReport(config, run, command.failOn, baseline, since);
    process.stdout.write(render(report, command, cwd));
    if (command.writeBaseline !== null) await writeBaseline(command.writeBaseline, formatJson(report));
    return report.summary.failing > 0 ? CHECK_EXIT.findings : CHECK_EXIT.clean;
  } catch (error) {
    progress.clear();
    return reportFailure(interrupted === null ? asBridgeError(error) : interruption(interrupted));
  } finally {
    await closeSessions();
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeListener(signal, onSignal);
  }
}

function render(report: CheckReport, command: CheckCommand, cwd: string): string {
  const format = command.format;
  if (format === "json") return formatJson(report);
  if (format === "sarif") return formatSarif(report, command.shard);
  return formatText(report, cwd);
}

function reportFailure(error: BridgeError): number {
  const usage = isCallersFault(error.code);
  process.stderr.write(`lspmcp check: ${usage ? "" : "no report: "}${escapeLines(error.message)} (${error.code})\n`);
  // The server's last words usually say why it failed.
  const tail = error.details.stderr_tail;
  if (Array.isArray(tail) && tail.length > 0) process.stderr.write(`  server stderr:\n${tail.map((line) => `    ${escapeText(String(line))}`).join("\n")}\n`);
  return usage ? CHECK_EXIT.usage : CHECK_EXIT.serverFailed;
}

function interruption(signal: string): BridgeError {
  return new BridgeError("Internal", `interrupted by ${signal} before every file was checked`, { signal });
}
