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
  return allProcs().filter((p) => p.ppid === parent).map((p) => p.pid);
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
  return allProcs().filter((p) => environ(p.pid).includes(`${name}=${value}`)).map((p) => p.pid);
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

/** Polls /proc until `pid` is gone or `timeoutMs` pass; resolves whether it is gone. */
export function waitForExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  return pollUntil(() => !isAlive(pid), timeoutMs, 25);
}

/** Waits until none of `procs` is alive; resolves with the survivors after `ms` (empty = all gone). */
export async function waitAllGone(procs: readonly Proc[], ms: number): Promise<Proc[]> {
  await pollUntil(() => procs.every((p) => !alive(p)), ms);
  return procs.filter(alive);
}

/** Waits until no process carries `name=value`, or fails after `deadlineMs` listing the survivors. */
export async function waitUntilGone(name: string, value: string, deadlineMs = 5_000): Promise<void> {
  if (await pollUntil(() => pidsWithEnv(name, value).length === 0, deadlineMs, 25)) return;
  const left = pidsWithEnv(name, value).map((pid) => `${pid}: ${cmdline(pid)}`);
  throw new Error(`processes still alive after ${deadlineMs} ms:\n${left.join("\n")}`);
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
