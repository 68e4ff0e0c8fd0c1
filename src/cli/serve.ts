import type { Logger } from "../contract/logger.js";
import { describeConfig, loadConfigSource } from "../config/config-source.js";
import type { ConfigSource } from "../config/types.js";

/**
 * `lspmcp serve`: MCP over stdio. Unless `--standalone` is given or `[shared] enabled = false`,
 * the bridge's sessions live in the one shared server of this config, which this process finds
 * or elects and then attaches to; where sharing cannot work here it serves standalone. stderr
 * names the configuration in use, and for the embedded default the servers it left out.
 */
export async function serve(source: ConfigSource, standalone: boolean, logger: Logger, version: string): Promise<number> {
  const config = await loadConfigSource(source);
  logger.info(describeConfig(config));
  if (standalone || !config.shared.enabled) return (await import("./serve-standalone.js")).serveStandalone(config, logger, version);
  return (await import("./serve-attached.js")).serveAttached(config, logger, version);
}
