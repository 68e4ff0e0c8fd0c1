import { fileURLToPath } from "node:url";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import type { BoundedLineTransport } from "../mcp/bounded-line-transport.js";
import type { StartupResponder } from "../mcp/startup-responder.js";
import { SocketUpstream, type LineHandler, type Upstream } from "../attach/socket-upstream.js";
import { StdioForwarder, type Attach } from "../attach/stdio-forwarder.js";
import { buildIdentity } from "../sharing/build-identity.js";
import { launchSharedServer } from "../sharing/launch-shared-server.js";
import { configDigest } from "../config/config-digest.js";
import { prepareRuntimeFolder } from "../config/runtime-folder.js";
import { findSharedServer } from "../sharing/lease-holder.js";
import { leasePaths, type LeasePaths } from "../sharing/lease-location.js";
import { peerSocketPath } from "../sharing/peer-socket-path.js";
import { leanNodeArgs } from "../contract/node-flags.js";
import { errorText } from "../contract/errors.js";

/** Deadline of one election: finding the lease's server, or launching one and hearing its report. */
const ELECTION_TIMEOUT_MS = 20_000;
/** Rounds of find-or-launch-and-connect: a launched server that lost reports the winner, who may just be leaving. */
const ELECTION_ROUNDS = 3;

/**
 * `lspmcp serve` attached to the shared server of its config. The agent is served from the first
 * line: `initialize` and `tools/list` are answered here while the shared server is found (or
 * elected) in the background, and everything else is forwarded to it once attached. Serves
 * standalone, with a warning, when the lease folder is not usable, and with sessions of its own
 * when no shared server can be had.
 */
export async function serveAttached(
  config: ResolvedConfig,
  logger: Logger,
  version: string,
  stdio: BoundedLineTransport,
  responder: StartupResponder,
): Promise<number> {
  const paths = leasePaths(config.configPath, config.shared.lease_dir);
  try {
    prepareRuntimeFolder(paths.dir);
    peerSocketPath(paths, process.pid);
  } catch (error) {
    logger.warn("lease folder not usable; serving standalone", { lease_dir: paths.dir, reason: errorText(error) });
    return (await import("./serve-standalone.js")).serveStandalone(config, logger, version, stdio, responder);
  }

  let ownSessions = false;
  const attach: Attach = async (onLine, onLost) => {
    if (!ownSessions) {
      try {
        const upstream = await attachShared(config, paths, version, onLine, onLost, logger);
        logger.info("attached to the shared server", { lease: paths.lease });
        return upstream;
      } catch (error) {
        logger.warn("no shared server could be had; serving with sessions of its own", { reason: errorText(error), log: paths.log });
        ownSessions = true;
      }
    }
    // Loaded only for the fallback: an attached bridge runs none of the sessions machinery.
    return (await import("./own-sessions.js")).ownSessions(config, logger, version, onLine);
  };

  const handover = responder.handOver();
  const forwarder = new StdioForwarder(stdio, attach, version, logger, handover);
  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));
  let leaving = false;
  const leave = async (reason: string): Promise<void> => {
    if (leaving) return;
    leaving = true;
    logger.info("leaving the shared server", { reason });
    await forwarder.close();
    done(0);
  };
  stdio.onerror = (error) => logger.debug("transport", { error: error.message });
  stdio.onclose = () => void leave("stdin closed");
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => void leave(signal));
  process.stdout.on("error", () => void leave("stdout closed"));
  forwarder.start();
  if (handover.closed) void leave("stdin closed");
  return finished;
}

// Find the lease's live server, else launch one, which either wins the election or reports the
// server that did; then connect to its peer socket.
async function attachShared(
  config: ResolvedConfig,
  paths: LeasePaths,
  version: string,
  onLine: LineHandler,
  onLost: (reason: string) => void,
  logger: Logger,
): Promise<Upstream> {
  const key = { version, build: buildIdentity(), configDigest: configDigest(config) };
  const until = Date.now() + ELECTION_TIMEOUT_MS;
  let lastError: unknown;
  for (let round = 0; round < ELECTION_ROUNDS && Date.now() < until; round++) {
    try {
      const lease = (await findSharedServer(paths, key, until)) ?? (await launchSharedServer(sharedServerArgv(config), paths, until)).lease;
      // A server of this build that loaded another config (the file changed after it was judged
      // here) would run what this serve did not judge: not that one.
      if (lease.build === key.build && lease.config_digest !== key.configDigest) throw new Error("the shared server loaded another version of the config");
      // Only a forwarder that outlived its shared server across an upgrade gets here: the install
      // launches its new build, and no server of this process's build can be started any more.
      if (lease.build !== key.build)
        logger.warn("lspmcp was upgraded under this bridge; attaching to the new build's shared server", { build: key.build, server_build: lease.build });
      return await SocketUpstream.connect(peerSocketPath(paths, lease.pid), lease.token, onLine, onLost);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error("the election did not finish in time");
}

/**
 * The command that runs the shared server of `config`: this very lspmcp build, by absolute paths,
 * under the node flags of this process (a `serve` run with `--cpu-prof` or a heap limit passes them
 * on to the server it launches), given the config file, or the root of the embedded default (which
 * it plans again for itself). The file comes with `--trust-config`: this serve has judged its
 * trust already (the server runs in "/", where the checkout it came from is unknown), and attaches
 * only to a server whose loaded config has the digest of the one it judged.
 */
function sharedServerArgv(config: ResolvedConfig): string[] {
  const source = config.source.kind === "file" ? ["--config", config.source.path, "--trust-config"] : ["--default-root", config.source.root];
  return [process.execPath, ...leanNodeArgs(process.execArgv), fileURLToPath(new URL("./main.js", import.meta.url)), "shared-server", ...source];
}
