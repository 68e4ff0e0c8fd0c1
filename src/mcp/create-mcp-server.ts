import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { TOOLS } from "../tools/index.js";
import { callTool } from "./call-tool.js";
import { ProgressReporter } from "./progress-reporter.js";
import type { CallGate } from "./fair-scheduler.js";
import { listedTool } from "./tool-schemas.js";

export interface McpServerOptions {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  readonly logger: Logger;
  readonly version: string;
  /** Where each tool call waits for its turn (the shared server's fair scheduler); none when standalone. */
  readonly gate?: CallGate;
}

/**
 * The MCP server: `tools/list` is the closed list (answered without touching any language
 * server), `tools/call` runs one of them. The only place where bridge errors become MCP results.
 */
export function createMcpServer({ config, sessions, logger, version, gate }: McpServerOptions): Server {
  const server = new Server(
    { name: "lspmcp", version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        "lspmcp answers read-only questions about source files from real language servers: diagnostics, hover, document and workspace symbols. Positions are 1-based line and 1-based column in Unicode code points.",
    },
  );
  const listed = TOOLS.map(listedTool);
  const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}; the tools are ${[...byName.keys()].join(", ")}`);
    const token = request.params._meta?.progressToken;
    const progress = token === undefined ? null : new ProgressReporter(token, extra.sendNotification, logger);
    const context = { config, sessions, signal: extra.signal, ...(progress ? { onProgress: progress.report } : {}) };
    return callTool(tool, request.params.arguments, context, logger, gate).finally(() => progress?.end());
  });
  return server;
}
