import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Duplex, Writable } from "node:stream";
import { packageRoot } from "../config/package-root.js";
import { BridgeError } from "../contract/errors.js";
import { readMessages, writeMessage, type SupervisorMessage } from "./control-channel.js";
import { checkExecutable } from "../exec/executable.js";
import { formatIdentity, identify } from "./proc-table.js";
import { SupervisedProcess } from "./supervised-process.js";
import { newSessionToken, treeEnv } from "./server-env.js";
import { resolveTimings, type SpawnSpec, type SupervisedServer, type SupervisionTimings } from "./types.js";
import { LEAN_HEAP_FLAGS } from "../contract/node-flags.js";

/**
 * How long the supervisor may take to report the server running. Generous: it covers a cold node
 * start of the supervisor on a loaded machine; the supervisor's own exec deadline is shorter.
 */
const START_DEADLINE_MS = 10_000;

/** The supervisor's fd on which it reads its own program (then closes it). */
const PROGRAM_FD = 4;
/**
 * What `node -e` runs in a supervisor: read the program the bridge sends on fd 4, close the fd (so
 * the server does not inherit it), run it as an ES module. Data URLs import node: builtins, and the
 * supervisor bundle imports nothing else.
 */
const PROGRAM_LOADER =
  `const fs=require("node:fs");const source=fs.readFileSync(${PROGRAM_FD});fs.closeSync(${PROGRAM_FD});` +
  `import("data:text/javascript;base64,"+source.toString("base64")).catch((e)=>{process.stderr.write(String(e)+"\\n");process.exit(70)})`;

/**
 * The supervisor's program, read once when this module loads, at the bridge's start: every
 * supervisor runs from this copy, so an upgrade that replaces the install under a running bridge
 * (`npm install -g`, `npm run build`) cannot take it away (issue 26: a shared bridge answered
 * ServerStartFailed to the first session started after a rebuild).
 */
const SUPERVISOR_PROGRAM = readSupervisorProgram();

/**
 * Starts a language server under its own supervisor process and resolves once the server itself
 * runs (setpriv has exec'd it). The server's environment is `spec.env` plus the two tree variables
 * (LSPMCP_SESSION_TOKEN, LSPMCP_OWNER) that let every descendant be found and orphans be swept.
 *
 * Rejects with `BridgeError("ServerStartFailed")` when the command is missing, not executable, or
 * fails to exec, or when the supervisor cannot start; nothing is left running then. A server that
 * starts and exits at once may also resolve: `exited` then settles right after.
 */
export async function spawnSupervised(spec: SpawnSpec, timings: Partial<SupervisionTimings> = {}): Promise<SupervisedServer> {
  const resolved = resolveTimings(timings);
  const failed = (message: string, details: Record<string, unknown> = {}, cause?: unknown): BridgeError =>
    new BridgeError("ServerStartFailed", message, { server: spec.label, ...details }, { cause });

  // Checked here as well as in the supervisor, so the common mistakes fail without a process.
  const problem = checkExecutable(spec.command);
  if (problem !== undefined) throw failed(problem.message, problem.details);
  if (SUPERVISOR_PROGRAM === undefined) throw failed("supervisor entry not built (run `npm run build`)");
  const self = identify(process.pid);
  if (self === undefined) throw failed("cannot read this process's own start time from /proc");

  const token = newSessionToken();
  const owner = formatIdentity(self);
  const supervisor = spawn(process.execPath, [...LEAN_HEAP_FLAGS, "-e", PROGRAM_LOADER, "--", "--supervise", "--label", spec.label], {
    // Its own process group, so a Ctrl-C or a group kill aimed at the bridge does not hit the
    // server before the bridge has had its chance at an orderly LSP shutdown.
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe"],
    env: { ...(process.env.PATH ? { PATH: process.env.PATH } : {}), ...treeEnv(token, owner) },
    cwd: "/",
  });
  // A spawn that fails for want of resources (EMFILE, EAGAIN, ENOMEM: a machine under load) gives
  // no pid and no stdio, and says why in an 'error' event on the next tick: heard from here on,
  // or it would end the bridge with an uncaught error (exit 1, a stack trace) instead of this
  // session's ServerStartFailed.
  const spawnFailure = new Promise<Error>((resolve) => supervisor.once("error", resolve));
  if (supervisor.pid === undefined) {
    const error = await spawnFailure;
    throw failed(`cannot start the supervisor process: ${error.message}`, { errno: (error as NodeJS.ErrnoException).code ?? null }, error);
  }
  const control = supervisor.stdio[3] as Duplex;
  const { stdin, stdout, stderr } = supervisor;
  if (!stdin || !stdout || !stderr) throw failed("cannot start the supervisor process: its pipes are missing");
  spec.onStderr?.(stderr);
  const program = supervisor.stdio[PROGRAM_FD] as Writable;
  // A supervisor that dies before reading it closes the pipe: its start fails below, not here.
  program.on("error", () => {});
  program.end(SUPERVISOR_PROGRAM);
  const supervisorId = identify(supervisor.pid) ?? { pid: supervisor.pid, startTime: -1 };

  const server = new SupervisedProcess({ supervisor, supervisorId, control, stdin, stdout, stderr, token, timings: resolved });
  const startup = new Promise<SupervisorMessage>((resolve) => {
    readMessages<SupervisorMessage>(
      control,
      (message) => {
        if (message.type === "started" || message.type === "start-failed") resolve(message);
        server.onMessage(message);
      },
      () => {
        resolve({ type: "start-failed", message: "supervisor closed its control pipe during start", details: {} });
        server.onControlEnd();
      },
    );
    supervisor.once("error", (error) => resolve({ type: "start-failed", message: `supervisor: ${error.message}`, details: {} }));
    setTimeout(() => resolve({ type: "start-failed", message: `server not running after ${START_DEADLINE_MS} ms`, details: {} }), START_DEADLINE_MS).unref();
  });
  writeMessage(control, {
    type: "start",
    command: spec.command,
    args: spec.args,
    env: { ...spec.env, ...treeEnv(token, owner) },
    cwd: spec.cwd,
    token,
    owner,
    timings: resolved,
    maxRssKiB: spec.maxRssMb ? spec.maxRssMb * 1024 : null,
  });

  const first = await startup;
  if (first.type !== "started") {
    await server.stop();
    throw failed(first.type === "start-failed" ? first.message : "server did not start", first.type === "start-failed" ? first.details : {});
  }
  server.setServer({ pid: first.serverPid, startTime: first.serverStartTime });
  return server;
}

/**
 * The bundled supervisor (dist/lspmcp/supervisor-main.js, one self-contained file), wherever this
 * module runs from: the bundle, tsc's dist/src (whose supervisor-main.js imports its neighbours and
 * cannot run from memory), or src/ under vitest (a plain `node` cannot run TypeScript), so
 * `npm run build` comes first. Undefined when it has not been built.
 */
function readSupervisorProgram(): Buffer | undefined {
  try {
    return readFileSync(join(packageRoot(), "dist", "lspmcp", "supervisor-main.js"));
  } catch {
    return undefined;
  }
}
