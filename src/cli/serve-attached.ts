import { fileURLToPath } from "node:url";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import { BoundedStdioTransport } from "../mcp/bounded-stdio-transport.js";
import type { UpstreamTarget } from "../mcp/http/http-upstream.js";
import { StdioForwarder } from "../mcp/http/stdio-forwarder.js";
import { launchSharedServer } from "../sharing/launch-shared-server.js";
import { configDigest, findSharedServer } from "../sharing/lease-holder.js";
import { leasePaths, prepareLeaseDir, type LeasePaths } from "../sharing/lease-location.js";

/** Deadline of one election: finding the lease's server, or launching one and hearing its report. */
const ELECTION_TIMEOUT_MS = 20_000;
/** Rounds of find-or-launch before giving up: a launched server that lost reports the winner, who may just be leaving. */
const ELECTION_ROUNDS = 3;

/**
 * `lspmcp serve` attached to the shared server of its config: finds it (or elects one) and then
 * forwards the agent's stdio to it until stdin ends or a signal arrives. Falls back to standalone,
 * with a warning, when the lease folder is not writable or no shared server can be had.
 */
export async function serveAttached(config: ResolvedConfig, logger: Logger, version: string): Promise<number> {
  const paths = leasePaths(config.configPath, config.shared.lease_dir);
  try {
    prepareLeaseDir(paths);
  } catch (error) {
    logger.warn("lease folder not usable; serving standalone", { lease_dir: paths.dir, reason: message(error) });
    return standalone(config, logger, version);
  }
  const attach = () => elect(config, paths, version);
  let first: UpstreamTarget;
  try {
    first = await attach();
  } catch (error) {
    logger.warn("no shared server could be had; serving standalone", { reason: message(error), log: paths.log });
    return standalone(config, logger, version);
  }

  const stdio = new BoundedStdioTransport(process.stdin, process.stdout);
  const forwarder = new StdioForwarder(stdio, first, attach, logger);
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
  await stdio.start();
  logger.info("attached to the shared server", { url: first.url, lease: paths.lease });
  return finished;
}

// Find the lease's live server; else launch one, which either wins the election or reports the
// server that did.
async function elect(config: ResolvedConfig, paths: LeasePaths, version: string): Promise<UpstreamTarget> {
  const key = { version, configDigest: configDigest(config) };
  const until = Date.now() + ELECTION_TIMEOUT_MS;
  let lastError: unknown;
  for (let round = 0; round < ELECTION_ROUNDS && Date.now() < until; round++) {
    try {
      const lease = (await findSharedServer(paths, key, until)) ?? (await launchSharedServer(sharedServerArgv(config), paths, until)).lease;
      return { url: lease.url, token: lease.token };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error("the election did not finish in time");
}

// Loaded only for the fallback: an attached bridge runs none of the sessions machinery.
async function standalone(config: ResolvedConfig, logger: Logger, version: string): Promise<number> {
  return (await import("./serve-standalone.js")).serveStandalone(config, logger, version);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The command that runs the shared server of `config`: this very lspmcp build, by absolute paths,
 * given the config file, or the root of the embedded default (which it plans again for itself).
 */
function sharedServerArgv(config: ResolvedConfig): string[] {
  const source = config.source.kind === "file" ? ["--config", config.source.path] : ["--default-root", config.source.root];
  return [process.execPath, fileURLToPath(new URL("./main.js", import.meta.url)), "shared-server", ...source];
}
