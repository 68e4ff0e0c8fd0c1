import { BridgeError } from "../contract/errors.js";
import { readMessages, writeMessage, type SupervisorMessage } from "./control-channel.js";
import { checkExecutable } from "../exec/executable.js";
import { takePrestarted } from "./prestarted-supervisor.js";
import { SupervisedProcess } from "./supervised-process.js";
import { bootSupervisor } from "./supervisor-boot.js";
import { treeEnv } from "./server-env.js";
import { resolveTimings, type SpawnSpec, type SupervisedServer, type SupervisionTimings } from "./types.js";

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
export async function spawnSupervised(spec: SpawnSpec, timings: Partial<SupervisionTimings> = {}): Promise<SupervisedServer> {
  const resolved = resolveTimings(timings);
  const failed = (message: string, details: Record<string, unknown> = {}, cause?: unknown): BridgeError =>
    new BridgeError("ServerStartFailed", message, { server: spec.label, ...details }, { cause });

  // Checked here as well as in the supervisor, so the common mistakes fail without a process.
  const problem = checkExecutable(spec.command);
  if (problem !== undefined) throw failed(problem.message, problem.details);
  // A supervisor prestarted while the bridge loaded (prestarted-supervisor.ts) is already past its
  // Node start; otherwise one is started now.
  const booted = (await takePrestarted()) ?? (await bootSupervisor(spec.label));
  if ("problem" in booted) throw failed(booted.problem, booted.details, booted.cause);
  const { supervisor, supervisorId, control, stdin, stdout, stderr, token, owner } = booted;
  spec.onStderr?.(stderr);

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
