import type { JudgedConfig } from "../config/config-trust.js";
import type { Logger } from "../contract/logger.js";
import { BoundedLineTransport } from "../mcp/bounded-line-transport.js";
import { StartupResponder } from "../mcp/startup-responder.js";

/**
 * `lspmcp serve`: MCP over stdio, with the config that `judgedConfig` finds, loads and judges
 * (`--config`, or the discovered one). The agent is answered from the first line (`initialize`,
 * `tools/list`, `ping`: see StartupResponder) while the config is found and loaded. Unless
 * `--standalone` is given or `[shared] enabled = false`, the bridge's sessions live in the one shared server of
 * this config, which this process finds or elects and then attaches to; where sharing cannot work
 * here it serves standalone. stderr names the configuration in use, and for the embedded default
 * the servers it left out. An invalid or untrusted config still ends the process with exit code 2,
 * having run nothing of it.
 */
export async function serve(judgedConfig: () => Promise<JudgedConfig>, standalone: boolean, logger: Logger, version: string): Promise<number> {
  const stdio = new BoundedLineTransport(process.stdin, process.stdout);
  const responder = new StartupResponder(stdio, version);
  await stdio.start();
  const { describeConfig } = await import("../config/config-source.js");
  const { requireTrusted } = await import("../config/config-trust.js");
  const config = requireTrusted(await judgedConfig());
  logger.info(describeConfig(config));
  if (standalone || !config.shared.enabled) return (await import("./serve-standalone.js")).serveStandalone(config, logger, version, stdio, responder);
  return (await import("./serve-attached.js")).serveAttached(config, logger, version, stdio, responder);
}
