// The soak's side of bench/heap-probe-preload.cjs: the environment that loads the probe into the
// lspmcp processes a soak starts, and one reading of a probed process's heap after a full GC.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PRELOAD = fileURLToPath(new URL("./heap-probe-preload.cjs", import.meta.url));

/** Environment variables that load the probe, writing into `dir` (with heap snapshots when this process has LSPMCP_HEAP_SNAPSHOT=1). */
export const heapProbeEnv = (dir) => ({
  NODE_OPTIONS: `--require ${PRELOAD}`,
  LSPMCP_HEAP_PROBE_DIR: dir,
  ...(process.env.LSPMCP_HEAP_SNAPSHOT === "1" ? { LSPMCP_HEAP_SNAPSHOT: "1" } : {}),
});

const lines = (file) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);

/**
 * Asks probed process `pid` for its memory after a full GC; resolves with its line
 * ({ rss, heap_used, heap_total, external, spaces }, bytes), or null when it does not answer within
 * `deadlineMs` (a process without the probe would die of SIGUSR2: only probed ones are asked).
 */
export async function readHeap(pid, dir, deadlineMs = 30_000) {
  const file = join(dir, `${pid}.jsonl`);
  const before = lines(file).length;
  try {
    process.kill(pid, "SIGUSR2");
  } catch {
    return null;
  }
  for (const until = Date.now() + deadlineMs; Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = lines(file);
    if (now.length > before) return JSON.parse(now.at(-1));
  }
  return null;
}
