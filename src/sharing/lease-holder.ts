import { isAlive } from "../supervision/proc-table.js";
import { readLease } from "./lease-file.js";
import type { LeasePaths } from "./lease-location.js";
import type { Lease } from "./lease-schema.js";
import { probeLease } from "./probe-lease.js";

/** Which shared server a process may attach to: same build, same configuration. */
interface SharingKey {
  readonly version: string;
  /** The build's digest: a rebuild of the same version is another build. */
  readonly build: string;
  readonly configDigest: string;
}

/** Longest wait for a probe answer: a live server on loopback answers in milliseconds. */
export const PROBE_TIMEOUT_MS = 2000;
/**
 * Shortest: a caller whose deadline is nearly spent still gives a healthy server a fair chance,
 * or an election would mistake it for a dead one and take its lease.
 */
const MIN_PROBE_MS = 500;

/**
 * True when `lease` names a server this process may attach to: its owner (pid and start time) is
 * alive, it is the same lspmcp version and build with the same config digest, and the server itself answers
 * that it is that lease's holder. Anything else (owner gone, not answering, another build or
 * config, displaced) makes the lease stale for this process.
 */
export async function isServing(lease: Lease, key: SharingKey, until: number): Promise<boolean> {
  if (lease.version !== key.version || lease.build !== key.build || lease.config_digest !== key.configDigest) return false;
  if (!isAlive({ pid: lease.pid, startTime: lease.start_time })) return false;
  const probe = await probeLease(lease, Math.max(MIN_PROBE_MS, Math.min(PROBE_TIMEOUT_MS, until - Date.now())));
  return (
    probe !== undefined &&
    probe.token === lease.token &&
    probe.leaseholder &&
    probe.version === key.version &&
    probe.build === key.build &&
    probe.config_digest === key.configDigest
  );
}

/** The lease of a live shared server this process may attach to, or undefined (read without the lock). */
export async function findSharedServer(paths: LeasePaths, key: SharingKey, until: number): Promise<Lease | undefined> {
  const read = readLease(paths.lease);
  if (read.state !== "present") return undefined;
  return (await isServing(read.lease, key, until)) ? read.lease : undefined;
}
