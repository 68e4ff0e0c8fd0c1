/** /proc helpers: find the processes that carry a test's marker variable in their environment. */
import { readdirSync, readFileSync } from "node:fs";

/** Pids of live processes whose environment contains `NAME=value` (zombies are not live). */
export function pidsWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/\) Z /.test(stat)) continue;
      const env = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (env.includes(needle)) out.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return out;
}

/** Waits until no process carries the marker, or fails after `deadlineMs` listing the survivors. */
export async function waitUntilGone(name: string, value: string, deadlineMs = 5_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const left = pidsWithEnv(name, value);
    if (left.length === 0) return;
    if (Date.now() > until) {
      const cmds = left.map((p) => {
        try {
          return `${p}: ${readFileSync(`/proc/${p}/cmdline`, "utf8").replace(/\0/g, " ")}`;
        } catch {
          return String(p);
        }
      });
      throw new Error(`processes still alive after ${deadlineMs} ms:\n${cmds.join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 25)); // polling interval of a deadline wait, not a readiness sleep
  }
}

/** Pids of live processes carrying the marker whose executable's base name is `name`. */
export function pidsNamed(marker: string, value: string, name: string): number[] {
  return pidsWithEnv(marker, value).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/comm`, "utf8").trim() === name;
    } catch {
      return false;
    }
  });
}

/** Waits until at least `count` such processes are alive; returns their pids. */
export async function waitForProcesses(marker: string, value: string, name: string, count: number, deadlineMs = 10_000): Promise<number[]> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const pids = pidsNamed(marker, value, name);
    if (pids.length >= count) return pids;
    if (Date.now() > until) throw new Error(`expected ${count} ${name} process(es) within ${deadlineMs} ms, saw ${pids.length}`);
    await new Promise((r) => setTimeout(r, 10)); // polling interval of a deadline wait
  }
}
