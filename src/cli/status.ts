import { describeConfig } from "../config/config-source.js";
import { answeringClause } from "../languages/index.js";
import { describeTrust, type JudgedConfig, type TrustState } from "../config/config-trust.js";
import type { ResolvedConfig } from "../config/types.js";
import { readLease } from "../sharing/lease-file.js";
import { PROBE_TIMEOUT_MS } from "../sharing/lease-holder.js";
import { leasePaths } from "../sharing/lease-location.js";
import { leaseOwnerProblem } from "../sharing/lease-owner.js";
import { fetchFromLease, STATUS_PATH } from "../sharing/probe-lease.js";
import type { STATUS_FORMATS } from "./parse-args.js";
import { escapeLines } from "../contract/escape-text.js";

interface StatusReport {
  trust: TrustState;
  lease: string;
  shared: boolean;
  reason: string | null;
  server: Record<string, unknown> | null;
  peers: Record<string, unknown>[];
  sessions: Record<string, unknown>[];
}

/**
 * `lspmcp status [--config FILE]`: whether the config may run (trust), and the shared server of
 * this config, its peers and its sessions, asked of the server itself. An untrusted config is
 * reported, not refused: status runs nothing of it. Exit 0 when one is serving, 1 when there is
 * none (or its lease is stale).
 */
export async function status(judged: JudgedConfig, format: (typeof STATUS_FORMATS)[number]): Promise<number> {
  const { config, trust } = judged;
  process.stderr.write(`lspmcp: ${escapeLines(describeConfig(config, answeringClause))}\n`);
  const report = { trust, ...(await gather(config)) };
  process.stdout.write(format === "json" ? JSON.stringify(report, null, 2) + "\n" : escapeLines(render(report)));
  return report.shared ? 0 : 1;
}

async function gather(config: ResolvedConfig): Promise<Omit<StatusReport, "trust">> {
  const paths = leasePaths(config.configPath, config.shared.lease_dir);
  const none = (reason: string): Omit<StatusReport, "trust"> => ({ lease: paths.lease, shared: false, reason, server: null, peers: [], sessions: [] });
  const read = readLease(paths.lease);
  if (read.state === "missing") return none("no lease: no shared server is running for this config");
  if (read.state === "corrupt") return none(`stale lease (${read.reason}); the next serve takes it over`);
  // Nothing goes to the lease's URL, token and all, unless its own server is what listens there.
  const problem = leaseOwnerProblem(paths, read.lease);
  if (problem !== null) return none(`stale lease: ${problem}; the next serve takes it over`);
  try {
    const response = await fetchFromLease(read.lease, STATUS_PATH, PROBE_TIMEOUT_MS);
    if (!response.ok) return none(`stale lease: its server answered HTTP ${response.status}`);
    const body = (await response.json()) as { server: Record<string, unknown>; peers: Record<string, unknown>[]; sessions: Record<string, unknown>[] };
    return { lease: paths.lease, shared: true, reason: null, server: body.server, peers: body.peers, sessions: body.sessions };
  } catch {
    return none(`stale lease: pid ${read.lease.pid} at ${read.lease.url} does not answer`);
  }
}

function render(report: StatusReport): string {
  const trust = describeTrust(report.trust);
  // The shared server (or why there is none) first: it is what status is asked for.
  if (!report.shared || !report.server) return `no shared server: ${report.reason}\nlease: ${report.lease}\n${trust}\n`;
  const server = report.server;
  const lines = [
    `shared server pid ${server.pid} at ${server.url} (lspmcp ${server.version}, build ${String(server.build).slice(0, 12)}, up ${seconds(server.uptime_ms)})${server.leaseholder ? "" : " — displaced, serving its last peers"}`,
    ...(server.stale === true
      ? ["stale: the install now holds another build; this server runs on what it loaded at start, and new serves start one of the new build"]
      : []),
    `lease: ${report.lease}`,
    `peers: ${report.peers.length}`,
    ...report.peers.map(
      (peer) =>
        `  ${String(peer.session).slice(0, 8)} pid ${peer.peer_pid ?? "-"}, connected ${seconds(peer.connected_ms)}, idle ${seconds(peer.idle_ms)}, ${peer.requests} requests, ${peer.in_flight} in flight`,
    ),
    `sessions: ${report.sessions.length}`,
    ...report.sessions.map(
      (session) =>
        `  ${session.workspace}/${session.server}: ${session.state}${session.pid === null ? "" : ` pid ${session.pid}`}, ${session.tree_processes} processes${memory(session)}`,
    ),
    trust,
  ];
  return lines.join("\n") + "\n";
}

/** `, 312.4 MiB of 4096 MiB` while it runs, and why the bridge last ended it (memory or idle). */
function memory(session: Record<string, unknown>): string {
  const rss =
    typeof session.rss_mb === "number" ? `, ${session.rss_mb} MiB${typeof session.max_rss_mb === "number" ? ` of ${session.max_rss_mb} MiB` : ""}` : "";
  const exit = session.last_exit as { reason?: string | null; rss_mb?: number | null } | null;
  const why = exit?.reason === "memory" ? `, last ended for memory (${exit.rss_mb} MiB)` : exit?.reason === "idle" ? ", last stopped idle" : "";
  return rss + why;
}

function seconds(ms: unknown): string {
  return typeof ms === "number" ? `${(ms / 1000).toFixed(1)} s` : "-";
}
