// Time limits that a loaded machine keeps: gates over process trees, timed by a GateClock
// (tests/helpers/proc.ts) from their event and net of the time a loaded machine kept the
// processes on the path from a CPU.
import { expect } from "vitest";
import { pollUntil } from "./poll.js";
import { alive, GateClock, pidsWithEnv, proc, type Proc } from "./proc.js";

export { GateClock };

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

/**
 * Polls `check` until it holds, or until the clock charges more than `limitMs`: a wait for an
 * event (an exit seen, a state reached) that a loaded machine does not cut short. Resolves
 * whether it held.
 */
export async function holdsWithin(check: () => boolean | Promise<boolean>, clock: GateClock, limitMs: number, intervalMs = 25): Promise<boolean> {
  let held = false;
  await pollUntil(async () => (held = await check()) || clock.chargedMs() > limitMs, HARD_CAP_MS - clock.elapsedMs(), intervalMs);
  return held || (await check());
}

/** The gate holds: nothing survived, within the limit as the clock charges it. */
export function expectGoneWithin(outcome: GateOutcome<unknown>, limitMs: number): void {
  expect(outcome.survivors).toEqual([]);
  expect(outcome.chargedMs).toBeLessThanOrEqual(limitMs);
}
