import { randomBytes } from "node:crypto";
import type { Logger } from "../contract/logger.js";
import { requireTrusted, type JudgedConfig } from "../config/config-trust.js";
import type { ResolvedConfig } from "../config/types.js";
import { createMcpServer } from "../mcp/create-mcp-server.js";
import { SharedServer } from "../shared-server/shared-server.js";
import { SessionRegistry } from "../sessions/session-registry.js";
import { claimLease, holdsLease, releaseLease } from "../sharing/claim-lease.js";
import { buildIdentity, installedBuild } from "../sharing/build-identity.js";
import { formatReport } from "../sharing/launch-shared-server.js";
import { configDigest } from "../config/config-digest.js";
import { prepareRuntimeFolder } from "../config/runtime-folder.js";
import { leasePaths } from "../sharing/lease-location.js";
import { peerSocketPath } from "../sharing/peer-socket-path.js";
import type { Lease } from "../sharing/lease-schema.js";
import { identify } from "../supervision/proc-table.js";
import { sweepOrphans } from "../supervision/index.js";
import { sweepSnapshotsOf } from "../diagnostics/since/revision-snapshot.js";
import { SharedLifetime } from "../sharing/shared-lifetime.js";
import { errorText } from "../contract/errors.js";

/** Deadline of the election and of the lease's removal at the end. */
const LOCK_TIMEOUT_MS = 15_000;
/** A freshly launched server waits this long at least for the peer that launched it. */
const FIRST_PEER_GRACE_MS = 10_000;

/**
 * `lspmcp shared-server --config FILE | --default-root DIR` (launched by `serve`, not by people):
 * opens its peer socket in the lease folder and its status endpoint on loopback (HTTP), runs the
 * election, reports the lease to attach to on stdout, and — when it won — serves its peers until
 * the last one has been gone for `linger_ms`, or a signal arrives. Then it removes its lease (only
 * if still its own), ends its peers and reaps every session's process tree.
 */
export async function serveShared(judged: JudgedConfig, logger: Logger, version: string): Promise<number> {
  const config = requireTrusted(judged);
  const paths = leasePaths(config.configPath, config.shared.lease_dir);
  prepareRuntimeFolder(paths.dir);
  const token = randomBytes(32).toString("hex");
  const digest = configDigest(config);
  const build = buildIdentity();
  const startedAt = Date.now();
  let stopping = false;
  const sessions = new SessionRegistry(config, logger);
  const lifetime = new SharedLifetime(config.shared.linger_ms, Math.max(config.shared.linger_ms, FIRST_PEER_GRACE_MS), () => void shutdown("no peers left"));
  let url = "";
  const server = new SharedServer({
    createMcpServer: (admission) => createMcpServer({ config, sessions, logger, version, admission }),
    fairness: { perPeer: config.shared.max_calls_per_peer, total: config.shared.max_calls_in_flight },
    token,
    // A server on its way out answers that it holds no lease, so nobody new attaches to it.
    probe: () => ({ kind: "lspmcp-shared", token, version, build, config_digest: digest, leaseholder: !stopping && holdsLease(paths, token) }),
    status: (): Record<string, unknown> => ({
      server: {
        pid: process.pid,
        url,
        version,
        build,
        // The install now holds another build (an upgrade ran under this server): it keeps
        // serving its peers from what it loaded at start, and new `serve`s get a server of their own.
        stale: installedBuild() !== build,
        config_digest: digest,
        config_path: config.configPath,
        leaseholder: holdsLease(paths, token),
        uptime_ms: Date.now() - startedAt,
      },
      sessions: sessions.all().map(({ session }) => session.status()),
    }),
    onPeerCount: (count) => lifetime.peers(count),
    logger,
  });
  url = await server.listen(peerSocketPath(paths, process.pid));
  // Orphans of an earlier server (one killed outright) are reaped before this one can be found:
  // sweeping only ever touches trees whose owner is gone, so a candidate that loses did no harm.
  await sweepOrphans((message, fields) => logger.info(message, fields));
  await sweepSnapshotsOf(config, (message, fields) => logger.info(message, fields));
  const lease = leaseOf(config, { token, url, version, build, digest });
  const claim = await claimLease(paths, lease, Date.now() + LOCK_TIMEOUT_MS);
  if (!claim.won) {
    report(claim.holder);
    await server.close();
    return 0;
  }

  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));
  const shutdown = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info("shared server shutting down", { reason });
    lifetime.stop();
    server.stopAccepting();
    await releaseLease(paths, token, Date.now() + LOCK_TIMEOUT_MS).catch((error: unknown) =>
      logger.warn("could not remove the lease", { reason: errorText(error) }),
    );
    await server.close();
    await sessions.closeAll();
    done(0);
  };
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => void shutdown(signal));
  report(lease);
  lifetime.start();
  logger.info("shared server elected", { url, pid: process.pid, config: config.configPath, lease: paths.lease });
  return finished;
}

// The launcher reads one line; after it the launcher is gone and stdout leads nowhere.
function report(lease: Lease): void {
  process.stdout.write(formatReport({ lease }));
  process.stdout.end();
}

function leaseOf(config: ResolvedConfig, self: { token: string; url: string; version: string; build: string; digest: string }): Lease {
  const identity = identify(process.pid);
  if (!identity) throw new Error("cannot read this process's own start time from /proc");
  return {
    kind: "lspmcp-lease",
    token: self.token,
    pid: identity.pid,
    start_time: identity.startTime,
    url: self.url,
    version: self.version,
    build: self.build,
    config_digest: self.digest,
    config_path: config.configPath,
    created_at: new Date().toISOString(),
  };
}
