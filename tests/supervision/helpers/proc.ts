// Test-side /proc reading, written independently of src/supervision so that the gates do not
// trust the code they check: a process is named by pid + start time, and "gone" means /proc has
// no live process with that pair.
import { readFileSync, readdirSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

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

/** Every live (non-zombie) process. */
export function allProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const s = stat(pid);
    if (s === undefined || s.state === "Z" || s.state === "X") continue;
    procs.push({ pid, startTime: s.startTime, ppid: s.ppid, cmdline: cmdline(pid) });
  }
  return procs;
}

/** The process `pid` as it is now, or undefined. */
export function proc(pid: number): Proc | undefined {
  return allProcs().find((p) => p.pid === pid);
}

/** Is this very process (pid + start time) still alive? */
export function alive(p: Proc): boolean {
  const s = stat(p.pid);
  return s !== undefined && s.startTime === p.startTime && s.state !== "Z" && s.state !== "X";
}

/** Processes whose environment has `name=value`, plus all their descendants. */
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

/** Polls until `check` holds or `ms` pass; returns whether it held. A deadline poll, not a sleep. */
export async function pollUntil(check: () => boolean, ms: number, intervalMs = 10): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= until) return false;
    await delay(intervalMs);
  }
}

/** Waits until none of `procs` is alive; resolves with the survivors after `ms` (empty = all gone). */
export async function waitAllGone(procs: readonly Proc[], ms: number): Promise<Proc[]> {
  await pollUntil(() => procs.every((p) => !alive(p)), ms);
  return procs.filter(alive);
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
