import { isAlive, isDeadState, isKernelThread, parseIdentity, readAllStats, readEnvironValue, readUid } from "./proc-table.js";
import { reapTree } from "./kill-tree.js";
import { resolveTimings, type SupervisionTimings } from "./types.js";
import { OWNER_VAR, TOKEN_VAR } from "./server-env.js";
import { scanTree } from "./tree-scan.js";

/** A log sink in the shape the bridge's logger takes. */
export type SweepLog = (msg: string, fields?: Record<string, unknown>) => void;

/**
 * Finds trees left behind by an earlier lspmcp of this user that died harder than its supervisor
 * could handle (bridge and supervisor killed at once), and reaps them. A tree is its session token;
 * it is an orphan when the owner recorded next to the token (LSPMCP_OWNER, pid:starttime) no
 * longer names a live process — so trees of other live bridges are never touched. Only processes
 * of the caller's own uid are considered. Logs one line per reaped tree. Never throws.
 */
export async function sweepOrphans(log: SweepLog = () => {}, timings: Partial<SupervisionTimings> = {}): Promise<{ reaped: number }> {
  try {
    const uid = process.getuid?.() ?? -1;
    const orphans = findOrphanTokens(uid);
    const outcomes = await Promise.all(
      [...orphans].map(async ([token, owner]) => {
        const scan = () => scanTree({ token, uid });
        const pids = scan().map((id) => id.pid);
        const outcome = await reapTree(scan, resolveTimings(timings));
        log("reaped orphaned process tree", { token, owner, pids, remaining: outcome.remaining, elapsed_ms: outcome.elapsedMs });
        return pids.length - outcome.remaining;
      }),
    );
    return { reaped: outcomes.reduce((sum, n) => sum + n, 0) };
  } catch (error) {
    log("orphan sweep failed", { error: String(error) });
    return { reaped: 0 };
  }
}

/** Token → owner, for every token whose owner is gone, among this uid's live processes. */
function findOrphanTokens(uid: number): Map<string, string> {
  const orphans = new Map<string, string>();
  const live = new Set<string>();
  for (const stat of readAllStats()) {
    // Kernel threads first: reading their status and environ was most of the sweep's time.
    if (stat.pid === process.pid || isDeadState(stat.state) || isKernelThread(stat) || readUid(stat.pid) !== uid) continue;
    const token = readEnvironValue(stat.pid, TOKEN_VAR);
    if (token === undefined || live.has(token) || orphans.has(token)) continue;
    const owner = readEnvironValue(stat.pid, OWNER_VAR) ?? "";
    const ownerId = parseIdentity(owner);
    // A token without a readable owner cannot be proven orphaned, so it is left alone.
    if (ownerId === undefined || isAlive(ownerId)) live.add(token);
    else orphans.set(token, owner);
  }
  return orphans;
}
