import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import type { MessageChannel } from "../mcp/message-channel.js";
import { createMcpServer } from "../mcp/create-mcp-server.js";
import { HandedOverTransport, type StartupResponder } from "../mcp/startup-responder.js";
import { SessionRegistry } from "../sessions/session-registry.js";
import { sweepOrphans } from "../supervision/index.js";
import { sweepSnapshotsOf } from "../diagnostics/since/revision-snapshot.js";

/**
 * `lspmcp serve --standalone`: MCP over stdio with sessions of its own, until stdin ends or a
 * signal arrives; then every session's process tree is reaped before the process exits. Takes
 * stdio over from the startup responder that answered the handshake. Resolves with the exit code.
 */
export async function serveStandalone(
  config: ResolvedConfig,
  logger: Logger,
  version: string,
  stdio: MessageChannel,
  responder: StartupResponder,
): Promise<number> {
  // Off the path of `initialize`: the sweep reaps only trees whose owner is gone, never ours.
  void sweepOrphans((message, fields) => logger.info(message, fields)).catch(() => {});
  void sweepSnapshotsOf(config, (message, fields) => logger.info(message, fields));
  const sessions = new SessionRegistry(config, logger);
  const server = createMcpServer({ config, sessions, logger, version });
  const transport = new HandedOverTransport(stdio, responder.handOver());

  let exitCode: number | null = null;
  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));
  const shutdown = async (reason: string, code: number): Promise<void> => {
    if (exitCode !== null) return;
    exitCode = code;
    logger.info("shutting down", { reason });
    await sessions.closeAll();
    await server.close().catch(() => {});
    done(code);
  };
  transport.onerror = (error) => logger.debug("transport", { error: error.message });
  server.onclose = () => void shutdown("stdin closed", 0);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.once(signal, () => void shutdown(signal, 0));
  }
  // A vanished MCP client must end the bridge, not crash it with EPIPE.
  process.stdout.on("error", () => void shutdown("stdout closed", 0));
  await server.connect(transport);
  transport.release();
  logger.info("serving", { config: config.configPath, workspaces: config.workspaces.length, servers: config.servers.length });
  return finished;
}
