/**
 * Process-tree supervision: what the rest of the bridge uses. Knows nothing of LSP; the streams of
 * a SupervisedServer are bytes.
 */
export { spawnSupervised } from "./spawn-supervised.js";
export { discardPrestarted, prestartSupervisor } from "./prestarted-supervisor.js";
export { scrubbedEnv } from "./server-env.js";
export { sweepOrphans, type SweepLog } from "./orphan-sweep.js";
export { DEFAULT_TIMINGS, resolveTimings } from "./types.js";
export type { ExitInfo, MemoryOverCap, MemorySample, SpawnSpec, SupervisedServer, SupervisionTimings } from "./types.js";
