import { setTimeout as delay } from "node:timers/promises";
import { formatIdentity, isAlive, isDeadState, type ProcessIdentity, readStat } from "./proc-table.js";
import type { SupervisionTimings } from "./types.js";

/** How often /proc is looked at while waiting for a tree to go. Short: it is a deadline poll, not a sleep. */
const POLL_MS = 10;

/** What a reap did. */
interface ReapOutcome {
  /** Distinct processes that were sent a signal. */
  readonly signalled: number;
  /** Processes of the tree still alive when the confirm deadline passed (0 = success). */
  readonly remaining: number;
  readonly elapsedMs: number;
}

/**
 * Ends a tree: SIGTERM to every member, up to `termGraceMs` for them to go, SIGKILL to what is
 * left, then waits up to `confirmDeadlineMs` until none is alive. `scan` is asked again on every
 * poll, so processes forked while the tree is dying are found and signalled too; a process found
 * once is followed by its identity until it is gone.
 * Never throws.
 */
export async function reapTree(
  scan: () => readonly ProcessIdentity[],
  timings: Pick<SupervisionTimings, "termGraceMs" | "confirmDeadlineMs">,
): Promise<ReapOutcome> {
  const started = Date.now();
  const signalled = new Set<string>();
  const outcome = (remaining: number): ReapOutcome => ({
    signalled: signalled.size,
    remaining,
    elapsedMs: Date.now() - started,
  });

  // Once proven, a member stays one while it lives (by pid + start time): a later scan may no
  // longer see why it belonged (say, the last other member of its session died first).
  const known = new Map<string, ProcessIdentity>();
  const rescan = (): ProcessIdentity[] => {
    for (const id of scan()) known.set(formatIdentity(id), id);
    for (const [key, id] of known) if (!isAlive(id)) known.delete(key);
    return [...known.values()];
  };

  let members = rescan();
  if (members.length === 0) return outcome(0);

  // Polite first: servers that handle SIGTERM get to flush and exit on their own.
  const termUntil = started + timings.termGraceMs;
  while (members.length > 0 && Date.now() < termUntil) {
    for (const id of members) {
      const key = formatIdentity(id);
      if (!signalled.has(key) && signal(id, "SIGTERM")) signalled.add(key);
    }
    await delay(POLL_MS);
    members = rescan();
  }

  // Then forceful: SIGKILL is repeated on every poll because a member may fork until it dies.
  const killUntil = Date.now() + timings.confirmDeadlineMs;
  while (members.length > 0 && Date.now() < killUntil) {
    for (const id of members) if (signal(id, "SIGKILL")) signalled.add(formatIdentity(id));
    await delay(POLL_MS);
    members = rescan();
  }
  return outcome(members.length);
}

/**
 * Signals one process by pid, after checking that the pid still names the same process, so that
 * a pid reused since the scan is never hit. Returns whether the signal was delivered.
 */
export function signal(id: ProcessIdentity, sig: NodeJS.Signals): boolean {
  const stat = readStat(id.pid);
  if (stat === undefined || stat.startTime !== id.startTime || isDeadState(stat.state)) return false;
  try {
    process.kill(id.pid, sig);
    return true;
  } catch {
    // ESRCH: it went in between; EPERM: not ours to kill. Either way there is nothing to do.
    return false;
  }
}
