// Preloaded into lspmcp's own processes by the soak (NODE_OPTIONS="--require .../heap-probe-preload.cjs",
// which a `serve` passes on to the shared server it launches; language servers never see it, their
// environment is scrubbed). On SIGUSR2 the process collects its garbage (unless
// LSPMCP_HEAP_PROBE_GC=0), then appends one JSON line with its memory to
// `$LSPMCP_HEAP_PROBE_DIR/<pid>.jsonl`, and with LSPMCP_HEAP_SNAPSHOT=1 writes a heap snapshot
// beside it. heapUsed after a full collection is what survives calls, free of the collector's timing.
"use strict";
const { appendFileSync } = require("node:fs");
const { join } = require("node:path");
const v8 = require("node:v8");
const vm = require("node:vm");

const dir = process.env.LSPMCP_HEAP_PROBE_DIR;
if (dir) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  process.on("SIGUSR2", () => {
    if (process.env.LSPMCP_HEAP_PROBE_GC !== "0") gc();
    const memory = process.memoryUsage();
    const line = { pid: process.pid, at: Date.now(), rss: memory.rss, heap_used: memory.heapUsed, heap_total: memory.heapTotal, external: memory.external };
    line.spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, [space.space_used_size, space.space_size]]));
    if (process.env.LSPMCP_HEAP_SNAPSHOT === "1") line.snapshot = v8.writeHeapSnapshot(join(dir, `${process.pid}-${Date.now()}.heapsnapshot`));
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  });
}
