/**
 * The process groups of the `maude` checks that are running right now. Each check runs in a
 * group of its own (spawned detached), so one `kill(-pgid)` ends it and anything it started.
 * The server calls {@link killAllGroups} on every way out, so no check outlives it.
 */

const live = new Set<number>();

/** Records a running check's process group (its leader's pid). */
export function trackGroup(pgid: number): void {
  live.add(pgid);
}

/** Forgets a group once its leader has exited and its group has been killed. */
export function untrackGroup(pgid: number): void {
  live.delete(pgid);
}

/** SIGKILLs one process group; a group that is already gone is not an error. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // ESRCH: the group has already gone, which is what we wanted.
  }
}

/** SIGKILLs every tracked group, synchronously, so it is safe inside an `exit` handler. */
export function killAllGroups(): void {
  for (const pgid of live) killGroup(pgid);
  live.clear();
}
