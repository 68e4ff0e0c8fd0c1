import type { Logger } from "../contract/logger.js";
import { BoundedLineTransport } from "../mcp/bounded-line-transport.js";
import { RevisionGate } from "../mcp/revision-gate.js";
import { StartupResponder } from "../mcp/startup-responder.js";

/**
 * `lspmcp serve`: MCP over stdio, with the config of `configArg` (`--config`) or the discovered
 * one. The agent is answered from the first line (`initialize`, `tools/list`, `ping`: see
 * StartupResponder) while the config is found and loaded. Unless `--standalone` is
 * given or `[shared] enabled = false`, the bridge's sessions live in the one shared server of
 * this config, which this process finds or elects and then attaches to; where sharing cannot work
 * here it serves standalone. stderr names the configuration in use, and for the embedded default
 * the servers it left out. An invalid config still ends the process with exit code 2.
 */
export async function serve(configArg: string | null, standalone: boolean, logger: Logger, version: string): Promise<number> {
  // Both MCP revisions: 2026-07-28 requests are told apart and answered at the gate (revision-gate.ts).
  const stdio = new RevisionGate(new BoundedLineTransport(process.stdin, process.stdout), version);
  const responder = new StartupResponder(stdio, version);
  await stdio.start();
  const { configSourceFor, describeConfig, loadConfigSource } = await import("../config/config-source.js");
  const config = await loadConfigSource(await configSourceFor(configArg));
  logger.info(describeConfig(config));
  if (standalone || !config.shared.enabled) return (await import("./serve-standalone.js")).serveStandalone(config, logger, version, stdio, responder);
  return (await import("./serve-attached.js")).serveAttached(config, logger, version, stdio, responder);
}
