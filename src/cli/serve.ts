import type { Logger } from "../contract/logger.js";
import { loadConfig } from "../config/load-config.js";

/**
 * `lspmcp serve`: MCP over stdio. Unless `--standalone` is given or `[shared] enabled = false`,
 * the bridge's sessions live in the one shared server of this config, which this process finds
 * or elects and then attaches to; where sharing cannot work here it serves standalone.
 */
export async function serve(configPath: string, standalone: boolean, logger: Logger, version: string): Promise<number> {
  const config = await loadConfig(configPath);
  if (standalone || !config.shared.enabled) return (await import("./serve-standalone.js")).serveStandalone(config, logger, version);
  return (await import("./serve-attached.js")).serveAttached(config, logger, version);
}
