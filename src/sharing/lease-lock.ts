import type { ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { spawnOwnCommand } from "../exec/own-command.js";

/** A held lock; `release` lets the next waiter in. */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Takes an exclusive kernel lock on `path` (flock(2), through util-linux's `flock` — Node has no
 * flock of its own). The lock is held by a small child that waits on our pipe, so it is released
 * whenever this process ends, however it ends: a crashed holder never leaves a stale lock.
 * Rejects when the lock is not held by `until` (epoch ms), `signal` aborts the wait, or `flock`
 * cannot run; a wait that timed out rejects with {@link LockTimedOut}.
 */
export function acquireLock(path: string, until: number, signal?: AbortSignal): Promise<HeldLock> {
  const seconds = Math.max(0.05, (until - Date.now()) / 1000).toFixed(2);
  // `echo` says "held"; `cat` keeps holding until our end of the pipe closes.
  const child = spawnOwnCommand(["flock", "--exclusive", "--timeout", seconds, path, "-c", "echo held; exec cat >/dev/null"], {
    stdio: ["pipe", "pipe", "ignore"],
  }) as ChildProcessByStdio<Writable, Readable, null>;
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return new Promise<HeldLock>((resolve, reject) => {
    let output = "";
    const abort = (): void => void child.kill("SIGKILL");
    signal?.addEventListener("abort", abort, { once: true });
    const fail = (reason: string): void => {
      signal?.removeEventListener("abort", abort);
      child.stdin.destroy();
      reject(reason === "timed out" ? new LockTimedOut(path) : new Error(`cannot lock ${path}: ${reason}`));
    };
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, killed) => fail(signal?.aborted ? "aborted" : code === 1 ? "timed out" : `flock exited with ${code ?? killed}`));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (!output.includes("held\n")) return;
      signal?.removeEventListener("abort", abort);
      child.removeAllListeners("exit");
      child.removeAllListeners("error");
      child.on("error", () => {});
      resolve({
        release: async () => {
          child.stdin.end();
          await exited;
        },
      });
    });
  });
}

/** The lock was not free before the deadline. */
export class LockTimedOut extends Error {
  constructor(path: string) {
    super(`cannot lock ${path}: timed out`);
  }
}

/** Runs `body` while holding the lock on `path`; the lock is released however `body` ends. */
export async function withLock<T>(path: string, until: number, body: () => Promise<T>): Promise<T> {
  const lock = await acquireLock(path, until);
  try {
    return await body();
  } finally {
    await lock.release();
  }
}
