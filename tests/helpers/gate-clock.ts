// Time limits that a loaded machine keeps. A claim such as CONTRACT §1's "gone within 5 seconds"
// is timed from its event (the kill, the EOF, the call), and the time the processes doing the work
// spent runnable but waiting for a CPU is the load's, not theirs: the kernel counts it per thread
// (/proc/PID/schedstat, second field, in ns). The clock charges a claim the wall time since the
// event minus that wait, summed over the processes on the path (and this test process, whose
// polling notices the outcome). On a quiet machine the wait is near zero and the limit is the
// claim's own; a reap that sleeps past the limit is charged in full, so the gate still fails.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { pollUntil } from "./poll.js";
import { alive, pidsWithEnv, proc, type Proc } from "./proc.js";

/** The run-queue wait of `pid`'s main thread so far, in ms, or undefined when it is gone. */
function runQueueWaitMs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "latin1").split(" ")[1]) / 1e6;
  } catch {
    return undefined;
  }
}

export class GateClock {
  /** Date.now() at the event. */
  readonly since = Date.now();
  /** Per actor (pid + start time, so a reused pid is never read): its wait at the event, and lately. */
  private readonly waits: { proc: Proc; first: number; last: number }[] = [];

  /** Starts at the event: create it right before the kill, EOF or call. `actors` do the work. */
  constructor(actors: readonly number[] = []) {
    for (const pid of [process.pid, ...actors]) this.add(pid);
  }

  /** Counts the wait of another process on the path from now on (one started after the event). */
  add(pid: number): void {
    const actor = proc(pid);
    const wait = runQueueWaitMs(pid);
    if (actor === undefined || wait === undefined || this.waits.some((w) => w.proc.pid === pid)) return;
    this.waits.push({ proc: actor, first: wait, last: wait });
  }

  /** Looks at every actor's wait again; a process that is gone keeps its last reading. */
  private sample(): void {
    for (const w of this.waits) {
      const wait = runQueueWaitMs(w.proc.pid);
      if (wait !== undefined && alive(w.proc)) w.last = Math.max(w.last, wait);
    }
  }

  elapsedMs(): number {
    return Date.now() - this.since;
  }

  /** What the claim is charged: wall time since the event minus the actors' run-queue wait since. */
  chargedMs(): number {
    this.sample();
    return this.elapsedMs() - this.waits.reduce((due, w) => due + w.last - w.first, 0);
  }
}

/** However loaded the machine, a gate gives up after this long. */
const HARD_CAP_MS = 60_000;

/** How a gate ended: the processes still alive, and what the clock charged when it looked last. */
export interface GateOutcome<T = Proc> {
  readonly survivors: T[];
  readonly chargedMs: number;
}

/**
 * Waits until none of `procs` is alive, or until the clock charges more than `limitMs`. A gate
 * holds when `survivors` is empty and `chargedMs` is within the limit.
 */
export async function goneWithin(procs: readonly Proc[], clock: GateClock, limitMs: number): Promise<GateOutcome> {
  let chargedMs = 0;
  await pollUntil(() => {
    const gone = procs.every((p) => !alive(p));
    chargedMs = clock.chargedMs();
    return gone || chargedMs > limitMs;
  }, HARD_CAP_MS - clock.elapsedMs());
  return { survivors: procs.filter(alive), chargedMs };
}

/** As {@link goneWithin}, for every process whose environment carries `name=value` (looked up afresh each time). */
export async function markedGoneWithin(name: string, value: string, clock: GateClock, limitMs: number): Promise<GateOutcome<string>> {
  let chargedMs = 0;
  await pollUntil(() => {
    const gone = pidsWithEnv(name, value).length === 0;
    chargedMs = clock.chargedMs();
    return gone || chargedMs > limitMs;
  }, HARD_CAP_MS - clock.elapsedMs());
  return { survivors: pidsWithEnv(name, value).map((pid) => `${pid}: ${proc(pid)?.cmdline ?? "?"}`), chargedMs };
}

/** The gate holds: nothing survived, within the limit as the clock charges it. */
export function expectGoneWithin(outcome: GateOutcome<unknown>, limitMs: number): void {
  expect(outcome.survivors).toEqual([]);
  expect(outcome.chargedMs).toBeLessThanOrEqual(limitMs);
}
