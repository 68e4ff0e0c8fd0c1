// The tests' /proc reader, written independently of src/supervision so that the gates do not
// trust the code they check: a process is named by pid + start time, and "gone" means /proc has
// no live (non-zombie) process with that pair.
import { readdirSync, readFileSync } from "node:fs";
import { pollUntil } from "./poll.js";

export interface Proc {
  readonly pid: number;
  readonly startTime: string;
  readonly ppid: number;
  readonly cmdline: string;
}

function stat(pid: number): { state: string; ppid: number; startTime: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! };
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

function environ(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  } catch {
    return [];
  }
}

const isDead = (state: string): boolean => state === "Z" || state === "X";

/** Every live (non-zombie) process. */
export function allProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const s = stat(pid);
    if (s === undefined || isDead(s.state)) continue;
    procs.push({ pid, startTime: s.startTime, ppid: s.ppid, cmdline: cmdline(pid) });
  }
  return procs;
}

/** The process `pid` as it is now, or undefined. */
export function proc(pid: number): Proc | undefined {
  const s = stat(pid);
  return s === undefined || isDead(s.state) ? undefined : { pid, startTime: s.startTime, ppid: s.ppid, cmdline: cmdline(pid) };
}

/** Is this very process (pid + start time) still alive? */
export function alive(p: Proc): boolean {
  const s = stat(p.pid);
  return s !== undefined && s.startTime === p.startTime && !isDead(s.state);
}

/** Whether a pid names a live (not zombie) process right now. */
export function isAlive(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && !isDead(s.state);
}

/** Pids of the live direct children of `parent`, from the parent links in /proc. */
export function childrenOf(parent: number): number[] {
  return allProcs()
    .filter((p) => p.ppid === parent)
    .map((p) => p.pid);
}

/** The live descendants of `root` right now (children, their children...), from the parent links in /proc. */
export function descendantsOf(root: number): Proc[] {
  const procs = allProcs();
  const members = new Set([root]);
  const found: Proc[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!members.has(p.pid) && members.has(p.ppid)) {
        members.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/** Processes whose environment has `name=value`, plus all their descendants (and `extraRoots`'). */
export function treeByEnv(name: string, value: string, extraRoots: readonly number[] = []): Proc[] {
  const procs = allProcs();
  const members = new Map<number, Proc>();
  for (const p of procs) if (extraRoots.includes(p.pid) || environ(p.pid).includes(`${name}=${value}`)) members.set(p.pid, p);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!members.has(p.pid) && members.has(p.ppid)) {
        members.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...members.values()];
}

/** Pids of live processes whose own environment has `name=value` (descendants that dropped it are not counted). */
export function pidsWithEnv(name: string, value: string): number[] {
  return allProcs()
    .filter((p) => environ(p.pid).includes(`${name}=${value}`))
    .map((p) => p.pid);
}

/** Pids of live processes carrying `marker=value` whose executable's base name is `name`. */
export function pidsNamed(marker: string, value: string, name: string): number[] {
  return pidsWithEnv(marker, value).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name;
    } catch {
      return false;
    }
  });
}

/** Resident and peak resident memory of a process in KiB, from /proc/PID/status. */
export function memoryOf(pid: number): { rssKiB: number; hwmKiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssKiB: field("VmRSS"), hwmKiB: field("VmHWM") };
}

/** The run-queue wait of `pid`'s main thread so far, in ms, or undefined when it is gone. */
function runQueueWaitMs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "latin1").split(" ")[1]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * A clock for time limits that a loaded machine keeps. A claim such as CONTRACT §1's "gone within
 * 5 seconds" is timed from its event (the kill, the EOF, the call), and the time the processes
 * doing the work spent runnable but waiting for a CPU is the load's, not theirs: the kernel counts
 * it per thread (/proc/PID/schedstat, second field, in ns). The clock charges a claim the wall time
 * since the event minus that wait, summed over the processes on the path (and this test process,
 * whose polling notices the outcome). On a quiet machine the wait is near zero and the limit is the
 * claim's own; a process that sleeps or waits past the limit is charged in full.
 */
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

/** However loaded the machine, a wait on a GateClock gives up after this many times its limit. */
const HARD_CAP_FACTOR = 4;

/**
 * Polls /proc until `pid` is gone or the clock charges `timeoutMs` (from now, net of its and this
 * process's wait for a CPU; GateClock); resolves whether it is gone.
 */
export async function waitForExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const clock = new GateClock([pid]);
  await pollUntil(() => !isAlive(pid) || clock.chargedMs() > timeoutMs, timeoutMs * HARD_CAP_FACTOR, 25);
  return !isAlive(pid);
}

/** Waits until none of `procs` is alive; resolves with the survivors after `ms` (empty = all gone). */
export async function waitAllGone(procs: readonly Proc[], ms: number): Promise<Proc[]> {
  await pollUntil(() => procs.every((p) => !alive(p)), ms);
  return procs.filter(alive);
}

/**
 * Waits until no process carries `name=value`, or fails once the clock charges `deadlineMs` (from
 * now, net of those processes' and this one's wait for a CPU; GateClock), listing the survivors.
 */
export async function waitUntilGone(name: string, value: string, deadlineMs = 5_000): Promise<void> {
  const clock = new GateClock(pidsWithEnv(name, value));
  await pollUntil(() => pidsWithEnv(name, value).length === 0 || clock.chargedMs() > deadlineMs, deadlineMs * HARD_CAP_FACTOR, 25);
  const left = pidsWithEnv(name, value).map((pid) => `${pid}: ${cmdline(pid)}`);
  if (left.length === 0) return;
  throw new Error(`processes still alive after ${deadlineMs} ms (net of their wait for a CPU):\n${left.join("\n")}`);
}

/** Waits until at least `count` processes named `name` carry `marker=value`; returns their pids. */
export async function waitForProcesses(marker: string, value: string, name: string, count: number, deadlineMs = 10_000): Promise<number[]> {
  let pids: number[] = [];
  if (await pollUntil(() => (pids = pidsNamed(marker, value, name)).length >= count, deadlineMs)) return pids;
  throw new Error(`expected ${count} ${name} process(es) within ${deadlineMs} ms, saw ${pids.length}`);
}

/**
 * Test hygiene only: SIGKILLs whichever of `procs` are still alive (pid + start time checked), so
 * that a failing gate does not leave daemons behind. Returns how many it had to kill.
 */
export function killLeftovers(procs: readonly Proc[]): number {
  let killed = 0;
  for (const p of procs) {
    if (!alive(p)) continue;
    try {
      process.kill(p.pid, "SIGKILL");
      killed++;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
