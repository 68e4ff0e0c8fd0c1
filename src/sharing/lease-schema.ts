import { z } from "zod";

/** What a lease file holds: who serves this config, where, and as which build. */
export const LeaseSchema = z.strictObject({
  kind: z.literal("lspmcp-lease"),
  /** Random per shared server: its identity for "still leaseholder", and the bearer secret of its endpoint. */
  token: z.string().regex(/^[0-9a-f]{32,128}$/),
  pid: z.int().positive(),
  /** The owner's start time in clock ticks since boot (/proc/PID/stat field 22): pid reuse cannot fake it. */
  start_time: z.int().nonnegative(),
  /** The status endpoint (lease probe and status), always on loopback. */
  url: z.string().regex(/^http:\/\/127\.0\.0\.1:[0-9]{1,5}$/),
  version: z.string().min(1),
  /** The build's digest (dist/lspmcp/build-id.json): two builds of one version are different builds. */
  build: z.string().min(1),
  config_digest: z.string().regex(/^[0-9a-f]{64}$/),
  config_path: z.string().min(1),
  created_at: z.string().min(1),
});

/** A lease as written and read; a file that does not parse as this is corrupt. */
export type Lease = z.output<typeof LeaseSchema>;

/** What a shared server answers on `GET /lspmcp/lease`: the probe of a lease. */
export const LeaseProbeSchema = z.object({
  kind: z.literal("lspmcp-shared"),
  token: z.string(),
  version: z.string(),
  build: z.string(),
  config_digest: z.string(),
  /** False once another server has taken the lease over: it still serves its peers, but takes no new ones. */
  leaseholder: z.boolean(),
});

export type LeaseProbe = z.output<typeof LeaseProbeSchema>;
