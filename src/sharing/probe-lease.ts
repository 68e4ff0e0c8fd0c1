import { LeaseProbeSchema, type Lease, type LeaseProbe } from "./lease-schema.js";

/** The URL path on which a shared server answers probes of its lease. */
export const PROBE_PATH = "/lspmcp/lease";
/** The URL path on which a shared server reports itself, its peers and its sessions. */
export const STATUS_PATH = "/lspmcp/status";

/** GET `path` of the server a lease names, with the lease's secret; rejects when it does not answer in time. */
export function fetchFromLease(lease: Lease, path: string, timeoutMs: number): Promise<Response> {
  return fetch(new URL(path, lease.url), {
    headers: { authorization: `Bearer ${lease.token}` },
    signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
  });
}

/**
 * Asks the server a lease names who it is. Resolves to its answer, or undefined when it does not
 * answer in time, refuses, or answers something that is not an lspmcp shared server.
 */
export async function probeLease(lease: Lease, timeoutMs: number): Promise<LeaseProbe | undefined> {
  try {
    const response = await fetchFromLease(lease, PROBE_PATH, timeoutMs);
    if (!response.ok) return undefined;
    const parsed = LeaseProbeSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
