import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import type { Duplex } from "node:stream";
import { readMessages, writeMessage, type BridgeMessage, type StartMessage, type SupervisorMessage } from "./control-channel.js";
import { findSetpriv, waitForExecPast, withParentDeathSignal } from "./parent-death.js";
import { checkExecutable } from "../exec/executable.js";
import { reapTree } from "./kill-tree.js";
import { identify, isAlive, parseIdentity, type ProcessIdentity } from "./proc-table.js";
import { watchMemory } from "./memory-watch.js";
import { scanTree } from "./tree-scan.js";

/** How often the supervisor checks that its bridge (pid + start time) is still alive. */
const OWNER_POLL_MS = 250;
/** How long setpriv may take to exec the server before the start counts as failed. */
const EXEC_DEADLINE_MS = 5000;
/** After a reap, how long to wait for the server's exit status to arrive (SIGCHLD) before leaving. */
const EXIT_STATUS_WAIT_MS = 500;

/**
 * The supervisor's whole life, driven by the control pipe: wait for `start`, start the server as
 * its child (stdio inherited: fds 0–2 are the bridge's pipes), report `started`/`exited`, and reap
 * the tree — on `stop`, on EOF of the control pipe (bridge gone), when the bridge's pid no longer
 * names the bridge, on SIGTERM/SIGINT/SIGHUP, when the server exits, and when the tree's resident
 * memory passes `maxRssKiB`. Then exit. While the server runs, the tree's memory is measured every
 * `memorySampleMs` and reported (`memory`), here and not in the bridge, so that no call waits on it.
 */
export function runSupervisor(control: Duplex): void {
  let start: StartMessage | undefined;
  let server: ChildProcess | undefined;
  let serverId: ProcessIdentity | undefined;
  let serverExited = false;
  let startReported = false;
  let finishing = false;
  let ownerTimer: NodeJS.Timeout | undefined;
  let stopMemoryWatch: (() => void) | undefined;
  const send = (message: SupervisorMessage): void => writeMessage(control, message);

  readMessages<BridgeMessage>(
    control,
    (message) => {
      if (message.type === "start" && start === undefined) {
        start = message;
        launch(message);
      } else if (message.type === "stop") void finish("stop");
    },
    () => void finish("bridge-gone"),
  );
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => void finish(sig));
  process.on("uncaughtException", (error) => {
    send({ type: "log", msg: "supervisor error", fields: { error: String(error) } });
    // A failure inside the reap itself ends the supervisor; the bridge's backstop takes over.
    if (finishing) process.exit(1);
    void finish("supervisor-error");
  });

  function launch(message: StartMessage): void {
    const owner = parseIdentity(message.owner);
    if (owner !== undefined) {
      // EOF on the control pipe is the fast signal; this catches a bridge whose pipe is held open
      // by something else (a forked helper that inherited it).
      ownerTimer = setInterval(() => {
        if (!isAlive(owner)) void finish("owner-gone");
      }, OWNER_POLL_MS);
    }
    const problem = checkExecutable(message.command);
    if (problem !== undefined) return failStart(problem.message, problem.details);

    const setpriv = findSetpriv();
    const { file, argv } = withParentDeathSignal(setpriv, message.command, message.args);
    // fd 3 of the server is /dev/null, not our control pipe: an inherited copy would keep the
    // pipe open after the bridge dies and hide the EOF we rely on.
    const devNull = openSync("/dev/null", "r+");
    server = spawn(file, argv, { stdio: ["inherit", "inherit", "inherit", devNull], env: { ...message.env }, cwd: message.cwd });
    if (server.pid !== undefined) serverId = identify(server.pid);
    server.on("error", (error) => {
      const errno = (error as NodeJS.ErrnoException).code ?? "UNKNOWN";
      failStart(`cannot start ${message.command}: ${error.message}`, { command: message.command, errno });
    });
    server.on("exit", (code, signal) => {
      serverExited = true;
      send({ type: "exited", code, signal });
      void finish("server-exit");
    });
    server.on("spawn", () => void confirmStart(message, setpriv));
  }

  async function confirmStart(message: StartMessage, setpriv: string | undefined): Promise<void> {
    const pid = server?.pid;
    if (pid === undefined) return failStart(`cannot start ${message.command}: no pid`, { command: message.command, errno: "UNKNOWN" });
    // Spawned, but gone from /proc before it could be read: it ran and ended at once (its stderr
    // says why).
    if (serverId === undefined) return failStart(`${message.command} ended as soon as it started`, { command: message.command, errno: "EXITED" });
    const execd = setpriv === undefined || (await waitForExecPast(pid, setpriv, EXEC_DEADLINE_MS, () => serverExited));
    if (!execd) {
      // setpriv exits 127 (not found) or 126 (cannot execute) when its exec fails; any other
      // status means the server itself ran and ended before it could be reported running.
      const exitCode = server?.exitCode ?? null;
      const signal = server?.signalCode ?? null;
      const errno = exitCode === 127 ? "ENOENT" : exitCode === 126 ? "EACCES" : serverExited ? "EXITED" : "ETIMEDOUT";
      const why = serverExited ? `exited during start (exit code ${exitCode}, signal ${signal})` : "exec did not complete in time";
      return failStart(`cannot start ${message.command}: ${why}`, { command: message.command, errno, exitCode, signal });
    }
    if (startReported) return;
    startReported = true;
    send({ type: "started", serverPid: pid, serverStartTime: serverId.startTime, pdeathsig: setpriv !== undefined });
    if (!finishing) watchTreeMemory(message, serverId);
  }

  function watchTreeMemory(message: StartMessage, root: ProcessIdentity): void {
    const tokenMemo = new Map<string, boolean>();
    const notBefore = identify(process.pid)?.startTime;
    stopMemoryWatch = watchMemory({
      scan: () => scanTree({ token: message.token, roots: [root], sessionId: process.pid, notBefore, tokenMemo }),
      intervalMs: message.timings.memorySampleMs,
      capKiB: message.maxRssKiB,
      onSample: ({ rssKiB, processes }) => send({ type: "memory", rssKiB, processes }),
      onOverCap: ({ rssKiB, processes }) => {
        // Said before the reap starts, so the bridge knows why before it hears of the exit.
        send({ type: "over-memory", rssKiB, capKiB: message.maxRssKiB ?? 0, processes });
        void finish("memory");
      },
    });
  }

  /** Reports a failed start, once; after a successful start, failures show up as `exited`. */
  function failStart(message: string, details: Record<string, unknown>): void {
    if (startReported) return;
    startReported = true;
    send({ type: "start-failed", message, details });
    void finish("start-failed");
  }

  async function finish(reason: string): Promise<void> {
    if (finishing) return;
    finishing = true;
    if (ownerTimer) clearInterval(ownerTimer);
    stopMemoryWatch?.();
    const token = start?.token;
    if (token !== undefined && start !== undefined) {
      const roots = serverId ? [serverId] : [];
      // The supervisor is its own session's leader (spawned detached), so its pid is the session id.
      const notBefore = identify(process.pid)?.startTime;
      const outcome = await reapTree(() => scanTree({ token, roots, sessionId: process.pid, notBefore }), start.timings);
      await waitFor(() => serverExited || server?.pid === undefined, EXIT_STATUS_WAIT_MS);
      send({ type: "reaped", reason, ...outcome });
    }
    // Leave once the last message is flushed; the timer bounds a peer that stopped reading.
    const leave = (): never => process.exit(0);
    setTimeout(leave, 500);
    control.end(leave);
  }
}

/** Polls `done` until it holds or `ms` pass. */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
}
