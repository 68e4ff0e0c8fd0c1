import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import { createMcpServer } from "../mcp/create-mcp-server.js";
import { localUpstream } from "../attach/local-upstream.js";
import type { LineHandler, Upstream } from "../attach/socket-upstream.js";
import { SessionRegistry } from "../sessions/session-registry.js";
import { sweepOrphans } from "../supervision/index.js";
import { sweepSnapshotsOf } from "../diagnostics/since/revision-snapshot.js";

/**
 * Sessions of its own for an attached `serve` that could have no shared server: a standalone MCP
 * server in this process behind the forwarder's link, its trees reaped when the link closes.
 */
export async function ownSessions(config: ResolvedConfig, logger: Logger, version: string, onLine: LineHandler): Promise<Upstream> {
  void sweepOrphans((text, fields) => logger.info(text, fields)).catch(() => {});
  void sweepSnapshotsOf(config, (text, fields) => logger.info(text, fields));
  const sessions = new SessionRegistry(config, logger);
  return localUpstream(createMcpServer({ config, sessions, logger, version }), onLine, () => sessions.closeAll());
}
