// A user of its own for the orphan-sweep gates. A sweep looks only at its own uid's processes
// (src/supervision/orphan-sweep.ts), and every other bridge the suite starts meanwhile sweeps as
// this test's user: a tree run as another uid is out of their reach, so a gate can prove that the
// sweep it started, and no other, reaped it. Running processes as another uid needs root, which
// CI and this project's machines are (as for tests/unit/sharing/lease-ownership.test.ts).
import { execFile } from "node:child_process";
import { chownSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO, SWEEP_ONCE } from "../../helpers/paths.js";

export interface SweepUser {
  readonly uid: number;
  readonly gid: number;
}

/**
 * A uid no account uses, one per test file (`slot`) and per suite run, so that two files never
 * share one, nor two whole suites running side by side on one machine (the other suite's gate
 * would sweep this one's orphans as its own). The suite is told apart by the vitest process that
 * forked this worker.
 */
export function sweepUser(slot: number): SweepUser {
  if (process.getuid?.() !== 0) throw new Error("the orphan-sweep gates run their trees as another uid, which needs root (as in CI)");
  if (slot < 1 || slot > 3) throw new Error(`sweep user slot ${slot}: 1 to 3`);
  const uid = 61_000 + (process.ppid % 1_000) * 4 + slot;
  return { uid, gid: uid };
}

/** Gives `dir` and everything under it to `user`, so that a bridge running as it can read its config. */
export function giveTo(dir: string, user: SweepUser): void {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) giveTo(path, user);
    else chownSync(path, user.uid, user.gid);
  }
}

/** What one sweep did: how many processes it reaped, and the pids of each tree it logged. */
export interface SweepOutcome {
  readonly reaped: number;
  readonly logged: { message: string; pids?: number[] }[];
}

/** Runs the compiled sweepOrphans once in a process of `user`'s; `onSpawn` learns its pid at once. */
export function sweepAs(user: SweepUser, onSpawn: (pid: number) => void): Promise<SweepOutcome> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [SWEEP_ONCE], { cwd: REPO, uid: user.uid, gid: user.gid }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as SweepOutcome),
    );
    onSpawn(child.pid!);
  });
}
