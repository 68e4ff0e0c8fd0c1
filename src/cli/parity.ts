import { spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { compareFindings, formatFinding, readCliFindings, sortFindings, type ParityDifference, type ParityFinding } from "./parity-findings.js";
import { configSourceFor } from "../config/config-source.js";
import { judgeConfig, requireTrusted, trustContextFor } from "../config/config-trust.js";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { asBridgeError, BridgeError } from "../contract/errors.js";
import { severityRank } from "../contract/names.js";
import { DEFAULT_BATCH_SIZE } from "../diagnostics/run/batch-size.js";
import { diagnoseTargets } from "../diagnostics/run/diagnose-targets.js";
import { discoverTargets } from "../targets/discover-targets.js";
import type { FileDiagnostics } from "../diagnostics/run/file-diagnostics.js";
import { SessionRegistry } from "../sessions/session-registry.js";
import type { ParityCommand } from "./parse-parity.js";
import { createStderrLogger } from "./stderr-logger.js";
import { projectRootsIn } from "../languages/index.js";

/** Exit codes of `parity`: as `check`'s, with 1 for a difference. */
const PARITY_EXIT = { equal: 0, differences: 1, usage: 2, serverFailed: 3 } as const;

/** What the CLI printed for one state of the files, compared where it is about a checked file. */
interface CliState {
  readonly findings: ParityFinding[];
  /** Findings about files the bridge did not check (outside the paths, or not the server's). */
  readonly outside: number;
  /** Results with no file location, which cannot be compared. */
  readonly unplaced: number;
}

/**
 * `lspmcp parity`: runs one server of a configuration through lspmcp on a folder, `runs` times,
 * each time with fresh sessions (cold) and, with `edit`, again after the file gains a line at its
 * end, and compares every answer with what the server's own CLI prints for the same files. Every
 * finding the bridge dropped or added is printed. The edited file is always restored.
 */
export async function parity(command: ParityCommand, cwd: string = process.cwd()): Promise<number> {
  const logger = createStderrLogger({ ...process.env, LSPMCP_LOG_LEVEL: process.env.LSPMCP_LOG_LEVEL ?? "error" });
  const source = configSourceFor(command.config, cwd);
  const config = requireTrusted(await judgeConfig(source, trustContextFor(command.config, source, command.trustConfig, cwd), projectRootsIn));
  const server = chosenServer(config, command.server);
  const only = withServerAlone(config, server);
  const targets = (await discoverTargets(only, command.paths, cwd)).targets;
  const workspace = onlyWorkspace(targets, server);
  const checked = new Set(targets.map((target) => target.file.path));
  const edit = command.edit === null ? null : editedFile(resolve(cwd, command.edit), workspace);
  const out = (line: string) => process.stdout.write(`${line}\n`);

  const filter = (findings: readonly ParityFinding[]) => findings.filter((finding) => severityRank(finding.severity) <= severityRank(command.minSeverity));
  const cliState = async (): Promise<CliState> => {
    const output = await runCli(command.cli, workspace.root);
    let read: { findings: ParityFinding[]; unplaced: string[] };
    try {
      read = readCliFindings(output, command.format, workspace.root);
    } catch (error) {
      throw new BridgeError("InvalidArguments", `--cli ${JSON.stringify(command.cli)}: ${(error as Error).message}`, {});
    }
    const inScope = read.findings.filter((finding) => checked.has(finding.path));
    return { findings: filter(inScope), outside: read.findings.length - inScope.length, unplaced: read.unplaced.length };
  };

  out(`parity of ${server.name} in workspace ${workspace.name}: ${targets.length} file${targets.length === 1 ? "" : "s"}, against: ${command.cli}`);
  out(`compared: file, line, ${command.key.join(", ")}; severities from ${command.minSeverity} up`);
  const cold = await cliState();
  out(`cli, cold: ${describeCli(cold)}`);
  const edited = edit === null ? null : await edit.during(cliState);
  if (edited !== null && edit !== null) out(`cli, after the edit of ${edit.path}: ${describeCli(edited)}`);

  let differing = 0;
  let failed = 0;
  for (let run = 1; run <= command.runs; run++) {
    const sessions = new SessionRegistry(only, logger);
    const report = (state: string, answer: readonly FileDiagnostics[], cli: CliState) => {
      const difference = compareFindings(filter(bridgeFindings(answer)), cli.findings, command.key);
      if (difference.dropped.length + difference.extra.length > 0) differing++;
      for (const line of describeRun(run, state, difference, cli.findings.length)) out(line);
    };
    try {
      report("cold", await diagnoseTargets(only, sessions, targets, { batchSize: DEFAULT_BATCH_SIZE, documents: "keep" }), cold);
      if (edit !== null && edited !== null) {
        const answer = await edit.during(() => diagnoseTargets(only, sessions, targets, { batchSize: DEFAULT_BATCH_SIZE, documents: "keep" }));
        report("after the edit", answer, edited);
      }
    } catch (error) {
      failed++;
      const failure = asBridgeError(error);
      out(`run ${run}: no answer: ${failure.message} (${failure.code})`);
    } finally {
      await sessions.closeAll();
    }
  }
  const states = command.runs * (edit === null ? 1 : 2);
  out(
    `${failed > 0 ? `${failed} of ${command.runs} runs gave no answer; ` : ""}` +
      `${differing === 0 && failed === 0 ? `every answer equals the CLI (${states} of ${states})` : `${differing} of ${states} answers differ from the CLI`}`,
  );
  if (failed > 0) return PARITY_EXIT.serverFailed;
  return differing > 0 ? PARITY_EXIT.differences : PARITY_EXIT.equal;
}

/** The named server, or the configuration's only one. */
function chosenServer(config: ResolvedConfig, name: string | null): ResolvedServer {
  if (name === null) {
    if (config.servers.length === 1) return config.servers[0]!;
    throw new BridgeError("InvalidArguments", `--server NAME is needed: the config has ${config.servers.map((server) => server.name).join(", ")}`, {});
  }
  const server = config.servers.find((candidate) => candidate.name === name);
  if (server === undefined)
    throw new BridgeError("InvalidArguments", `--server ${name}: no such server in the config (it has ${config.servers.map((s) => s.name).join(", ")})`, {});
  return server;
}

/** The configuration with `server` alone in each workspace that names it, so that no other server answers. */
function withServerAlone(config: ResolvedConfig, server: ResolvedServer): ResolvedConfig {
  const workspaces = config.workspaces
    .filter((workspace) => workspace.servers.includes(server.name))
    .map((workspace) => ({ ...workspace, servers: [server.name], default_server: {}, diagnostics_server: {} }));
  if (workspaces.length === 0) throw new BridgeError("InvalidArguments", `--server ${server.name}: no workspace of the config names it`, {});
  return { ...config, workspaces };
}

/** The one workspace the targets lie in: the CLI runs in its root. */
function onlyWorkspace(targets: readonly { readonly workspace: ResolvedWorkspace }[], server: ResolvedServer): ResolvedWorkspace {
  const workspaces = [...new Set(targets.map((target) => target.workspace))];
  if (workspaces.length === 0) throw new BridgeError("InvalidArguments", `no file under the paths given is ${server.name}'s`, {});
  if (workspaces.length > 1) {
    throw new BridgeError(
      "InvalidArguments",
      `the paths lie in ${workspaces.length} workspaces (${workspaces.map((w) => w.name).join(", ")}); give paths of one`,
      {},
    );
  }
  return workspaces[0]!;
}

/** The file `--edit` names, inside the workspace, with the way to hold it edited while some work runs. */
function editedFile(path: string, workspace: ResolvedWorkspace): { path: string; during<T>(work: () => Promise<T>): Promise<T> } {
  const inside = relative(workspace.root, path);
  if (inside === "" || inside.startsWith("..") || resolve(workspace.root, inside) !== path) {
    throw new BridgeError("InvalidArguments", `--edit ${path}: not a file of workspace ${workspace.name} (${workspace.root})`, {});
  }
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw new BridgeError("InvalidArguments", `--edit ${path}: no such file`, {});
  return {
    path: inside.split(sep).join("/"),
    async during(work) {
      const original = readFileSync(path);
      // Put back on any way out, a signal included: the user's file is never left edited.
      const restore = () => writeFileSync(path, original);
      const onSignal = (signal: NodeJS.Signals) => {
        restore();
        process.kill(process.pid, signal);
      };
      for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, onSignal);
      try {
        writeFileSync(path, Buffer.concat([original, Buffer.from(original.length === 0 || original.at(-1) === 0x0a ? "\n" : "\n\n")]));
        return await work();
      } finally {
        restore();
        for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeListener(signal, onSignal);
      }
    },
  };
}

/** The bridge's findings as parity compares them. */
function bridgeFindings(answer: readonly FileDiagnostics[]): ParityFinding[] {
  return answer.flatMap((file) =>
    file.diagnostics.map((diagnostic) => ({
      path: file.file.path,
      line: diagnostic.range.start.line,
      column: diagnostic.range.start.column,
      severity: diagnostic.severity,
      code: diagnostic.code,
      message: diagnostic.message,
    })),
  );
}

/**
 * Runs the CLI by `/bin/sh -c` in `root` and resolves with its stdout. Its exit status is not
 * judged (a checker exits non-zero when it finds something); an empty stdout with a failed
 * status is a usage error with its stderr.
 */
function runCli(commandLine: string, root: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("/bin/sh", ["-c", commandLine], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => reject(new BridgeError("InvalidArguments", `--cli could not run: ${error.message}`, {})));
    child.on("close", (code, signal) => {
      const output = Buffer.concat(stdout).toString("utf8");
      if (output.trim() === "" && code !== 0) {
        const said = Buffer.concat(stderr).toString("utf8").trim().split("\n").slice(-5).join("\n  ");
        reject(new BridgeError("InvalidArguments", `--cli printed nothing and exited ${signal ?? code}${said === "" ? "" : `:\n  ${said}`}`, {}));
        return;
      }
      resolvePromise(output);
    });
  });
}

function describeCli(state: CliState): string {
  const apart = [
    state.outside > 0 ? `${state.outside} about other files, not compared` : null,
    state.unplaced > 0 ? `${state.unplaced} with no file location, not compared` : null,
  ].filter((part) => part !== null);
  return `${state.findings.length} finding${state.findings.length === 1 ? "" : "s"}${apart.length > 0 ? ` (${apart.join("; ")})` : ""}`;
}

function describeRun(run: number, state: string, difference: ParityDifference, cliCount: number): string[] {
  const { dropped, extra } = difference;
  if (dropped.length === 0 && extra.length === 0) return [`run ${run}, ${state}: equal (${cliCount} finding${cliCount === 1 ? "" : "s"})`];
  return [
    `run ${run}, ${state}: ${dropped.length} dropped, ${extra.length} extra (the CLI has ${cliCount})`,
    ...sortFindings(dropped).map((finding) => `  dropped ${formatFinding(finding)}`),
    ...sortFindings(extra).map((finding) => `  extra   ${formatFinding(finding)}`),
  ];
}
