import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../supervision/proc-table.js";
import { readLease, removeLease, writeLease } from "./lease-file.js";
import { isServing } from "./lease-holder.js";
import type { LeasePaths } from "./lease-location.js";
import { withLock } from "./lease-lock.js";
import type { Lease } from "./lease-schema.js";

/** The outcome of an election: this server holds the lease, or `holder` already served it. */
type Claim = { readonly won: true } | { readonly won: false; readonly holder: Lease };

/**
 * The election. Under the lease lock: a lease whose server is serving this same build and config
 * wins over `candidate`; any other lease (missing, empty, corrupt, foreign, owner gone, not
 * answering, never published, another version or config) is replaced by `candidate`. Two
 * candidates at the same instant are serialized by the lock, so exactly one of them wins. While it
 * holds the lock it also removes the leases, of any config, whose owner is gone (a server killed
 * outright cannot remove its own), so the folder does not grow with configs no longer used.
 */
export function claimLease(paths: LeasePaths, candidate: Lease, until: number): Promise<Claim> {
  return withLock(paths.lock, until, async () => {
    removeDeadLeases(paths);
    const current = readLease(paths.lease);
    const key = { version: candidate.version, build: candidate.build, configDigest: candidate.config_digest };
    if (current.state === "present" && current.lease.token !== candidate.token && (await isServing(current.lease, key, until))) {
      return { won: false, holder: current.lease };
    }
    writeLease(paths.lease, candidate);
    return { won: true };
  });
}

/** Removes the lease if, and only if, it is still `token`'s: a displaced owner leaves its successor's alone. */
export function releaseLease(paths: LeasePaths, token: string, until: number): Promise<boolean> {
  return withLock(paths.lock, until, async () => {
    const current = readLease(paths.lease);
    if (current.state !== "present" || current.lease.token !== token) return false;
    removeLease(paths.lease);
    return true;
  });
}

/** Whether `token` still holds the lease (an unlocked read; the file is only ever replaced whole). */
export function holdsLease(paths: LeasePaths, token: string): boolean {
  const current = readLease(paths.lease);
  return current.state === "present" && current.lease.token === token;
}

/** Removes every lease in the folder whose owner process is gone; callers hold the folder's lock. */
function removeDeadLeases(paths: LeasePaths): void {
  const names = readdirSync(paths.dir).filter((name) => name.endsWith(".lease"));
  for (const name of names) {
    const path = join(paths.dir, name);
    const read = readLease(path);
    if (read.state === "present" && !isAlive({ pid: read.lease.pid, startTime: read.lease.start_time })) removeLease(path);
  }
}
