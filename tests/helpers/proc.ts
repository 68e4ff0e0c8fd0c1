import { readdirSync, readFileSync } from "node:fs";

/** Whether a pid names a live (not zombie) process right now, read from /proc. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls /proc until `pid` is gone or the deadline passes; resolves whether it is gone. */
export async function waitForExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isAlive(pid);
}

/** Live pids for which `test` (given the pid) holds; processes that vanish meanwhile are skipped. */
function livePidsWhere(test: (pid: number) => boolean): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return test(pid) && isAlive(pid);
      } catch {
        return false;
      }
    });
}

/** Pids of the live direct children of `parent`, from the parent links in /proc. */
export function childrenOf(parent: number): number[] {
  return livePidsWhere((pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
  });
}
