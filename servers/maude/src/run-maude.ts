/**
 * Runs `maude` once on one file: a fresh process in its own process group, stdin closed,
 * stdout discarded, stderr collected (bounded), killed with its whole group at the deadline.
 * Never rejects; every way it can end is a field of the result.
 */
import { spawn } from "node:child_process";
import { findSetpriv, withParentDeathSignal } from "../../../src/supervision/parent-death.js";
import { killGroup, trackGroup, untrackGroup } from "./process-groups.js";

/**
 * The flags of every check; Maude 3.2 accepts all of them. Besides CONTRACT §7's five, `-no-wrap`:
 * without it Maude wraps a warning at 80 columns counting its `Warning: "file", line N (ctx): `
 * prefix, so the same message would read differently in a file with a longer name.
 */
export const MAUDE_FLAGS: readonly string[] = ["-no-banner", "-no-advise", "-no-ansi-color", "-no-tecla", "-no-wrap", "-batch"];

/** What to run and for how long. */
interface RunMaudeOptions {
  /** Absolute path of the maude executable. */
  readonly maudePath: string;
  /** The file to check (absolute). */
  readonly file: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Stderr beyond this many bytes is dropped (a binary file can produce megabytes). */
  readonly maxStderrBytes?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** How a run ended. Exactly one of: spawnError, timedOut, signal, or an exit code. */
export interface MaudeRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Set when the process could not be started at all. */
  readonly spawnError: Error | null;
  readonly stderr: string;
  readonly stderrTruncated: boolean;
  readonly durationMs: number;
}

// After the leader exits, wait this long for stderr to close before giving up on it.
const DRAIN_GRACE_MS = 2_000;

/** Runs one check and resolves when the process (and its group) is gone. */
export function runMaude(opts: RunMaudeOptions): Promise<MaudeRun> {
  const started = performance.now();
  const max = opts.maxStderrBytes ?? 4 * 1024 * 1024;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let timedOut = false;
    let settled = false;
    // maude dies with this server however it dies (see parent-death.ts); without setpriv, only
    // the server's own exit handlers and the bridge's supervision end it.
    const argv = withParentDeathSignal(findSetpriv(), opts.maudePath, [...MAUDE_FLAGS, opts.file]);
    const child = spawn(argv.file, argv.argv, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      // detached puts maude in a new process group, so the timeout can kill the whole group.
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const pgid = child.pid;
    if (pgid !== undefined) trackGroup(pgid);
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (pgid !== undefined) {
        killGroup(pgid); // Anything the check left behind in its group goes with it.
        untrackGroup(pgid);
      }
      resolve({
        exitCode,
        signal,
        timedOut,
        spawnError,
        stderr: Buffer.concat(chunks).toString("utf8"),
        stderrTruncated: truncated,
        durationMs: performance.now() - started,
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      if (pgid !== undefined) killGroup(pgid);
      // A process stuck in the kernel may not die at once; the queue must move on regardless.
      setTimeout(() => finish(null, "SIGKILL", null), DRAIN_GRACE_MS).unref();
    }, opts.timeoutMs);
    child.stderr?.on("data", (chunk: Buffer) => {
      const room = max - size;
      if (chunk.length > room) truncated = true;
      if (room <= 0) return;
      chunks.push(chunk.subarray(0, room));
      size += Math.min(chunk.length, room);
    });
    child.on("error", (err) => finish(null, null, err));
    child.on("close", (code, signal) => finish(code, signal, null));
    child.on("exit", (code, signal) => {
      // A grandchild holding stderr open must not keep the check alive forever.
      setTimeout(() => finish(code, signal, null), DRAIN_GRACE_MS).unref();
    });
  });
}
