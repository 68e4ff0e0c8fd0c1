import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { BridgeError } from "../contract/errors.js";
import { readMessages, writeMessage, type SupervisorMessage } from "./control-channel.js";
import { checkExecutable } from "./executable.js";
import { formatIdentity, identify } from "./proc-table.js";
import { SupervisedProcess } from "./supervised-process.js";
import { newSessionToken, treeEnv } from "./server-env.js";
import { resolveTimings, type SpawnSpec, type SupervisedServer, type SupervisionTimings } from "./types.js";
import { LEAN_HEAP_FLAG } from "./lean-node.js";

/**
 * How long the supervisor may take to report the server running. Generous: it covers a cold node
 * start of the supervisor on a loaded machine; the supervisor's own exec deadline is shorter.
 */
const START_DEADLINE_MS = 10_000;

/**
 * Starts a language server under its own supervisor process and resolves once the server itself
 * runs (setpriv has exec'd it). The server's environment is `spec.env` plus the two tree variables
 * (LSPMCP_SESSION_TOKEN, LSPMCP_OWNER) that let every descendant be found and orphans be swept.
 *
 * Rejects with `BridgeError("ServerStartFailed")` when the command is missing, not executable, or
 * fails to exec, or when the supervisor cannot start; nothing is left running then. A server that
 * starts and exits at once may also resolve: `exited` then settles right after.
 */
export async function spawnSupervised(
  spec: SpawnSpec,
  timings: Partial<SupervisionTimings> = {},
): Promise<SupervisedServer> {
  const resolved = resolveTimings(timings);
  const failed = (message: string, details: Record<string, unknown> = {}, cause?: unknown): BridgeError =>
    new BridgeError("ServerStartFailed", message, { server: spec.label, ...details }, { cause });

  // Checked here as well as in the supervisor, so the common mistakes fail without a process.
  const problem = checkExecutable(spec.command);
  if (problem !== undefined) throw failed(problem.message, problem.details);
  const mainPath = supervisorMainPath();
  if (mainPath === undefined) throw failed("supervisor entry not built (run `npm run build`)");
  const self = identify(process.pid);
  if (self === undefined) throw failed("cannot read this process's own start time from /proc");

  const token = newSessionToken();
  const owner = formatIdentity(self);
  const supervisor = spawn(process.execPath, [LEAN_HEAP_FLAG, mainPath, "--supervise", "--label", spec.label], {
    // Its own process group, so a Ctrl-C or a group kill aimed at the bridge does not hit the
    // server before the bridge has had its chance at an orderly LSP shutdown.
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    env: { ...(process.env.PATH ? { PATH: process.env.PATH } : {}), ...treeEnv(token, owner) },
    cwd: "/",
  });
  const control = supervisor.stdio[3] as Duplex;
  const { stdin, stdout, stderr } = supervisor;
  if (supervisor.pid === undefined || !stdin || !stdout || !stderr) {
    await new Promise<void>((resolve) => supervisor.once("error", () => resolve()));
    throw failed("cannot start the supervisor process");
  }
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
 * The compiled supervisor entry. From the built bridge it sits next to this module; when this
 * module runs from source (vitest transpiles `src/`), the supervisor still has to be the compiled
 * one, because a plain `node` cannot run TypeScript — so `npm run build` comes first.
 * Returns undefined when it has not been built.
 */
function supervisorMainPath(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const candidate = here.endsWith(".ts")
    ? join(resolve(dirname(here), "..", ".."), "dist", "src", "supervision", "supervisor-main.js")
    : join(dirname(here), "supervisor-main.js");
  return existsSync(candidate) ? candidate : undefined;
}
