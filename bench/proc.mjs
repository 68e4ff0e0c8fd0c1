// /proc, read directly, for the benches: they measure the implementation and must not use it to
// measure. A process is named by pid + start time, so a reused pid is never mistaken for it.
import { readFileSync, readdirSync } from "node:fs";

/** State, parent, start time and CPU (utime + stime, ms at USER_HZ 100) of `pid`, or undefined. */
export function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "latin1");
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: f[0], ppid: Number(f[1]), start: f[19], cpuMs: (Number(f[11]) + Number(f[12])) * 10 };
  } catch {
    return undefined;
  }
}

const live = (s) => s !== undefined && s.state !== "Z" && s.state !== "X";

/** Is this very process (pid + start time) still alive? Zombies count as gone. */
export function alive(p) {
  const s = stat(p.pid);
  return live(s) && s.start === p.start;
}

/** `pid` as a `{ pid, start }` to follow with `alive`. */
export const procOf = (pid) => ({ pid, start: stat(pid)?.start });

/** Every process for which `isRoot(pid)` holds, and all their live descendants, by parent links. */
export function treeWhere(isRoot) {
  const all = readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map((n) => ({ pid: Number(n), ...stat(Number(n)) }))
    .filter(live);
  const members = new Map(all.filter((p) => isRoot(p.pid)).map((p) => [p.pid, p]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!members.has(p.pid) && members.has(p.ppid)) members.set(p.pid, p), (grew = true);
  }
  return [...members.values()];
}

/** A `KEY: N kB` field of a /proc file (status, smaps_rollup) in KiB; 0 when it cannot be read. */
export function kib(file, key) {
  try {
    return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(readFileSync(file, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
