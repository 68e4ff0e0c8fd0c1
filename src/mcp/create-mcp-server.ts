import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { TOOLS } from "../tools/index.js";
import { callTool } from "./call-tool.js";
import type { CallGate } from "./fair-scheduler.js";
import { ProgressReporter } from "./progress-reporter.js";
import { SERVER_CAPABILITIES, SERVER_INSTRUCTIONS } from "./server-identity.js";
import { TOOL_LIST } from "./tool-list.generated.js";

export interface McpServerOptions {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  readonly logger: Logger;
  readonly version: string;
  /** Where each tool call waits for its turn (the shared server's fair scheduler); none when standalone. */
  readonly gate?: CallGate;
}

// The tools' JSON Schemas were generated once, from their zod schemas, by `npm run schema`.
const LIST_RESULT = { tools: TOOL_LIST };
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * The MCP server: `tools/list` is the closed list (answered without touching any language
 * server), `tools/call` runs one of them. The only place where bridge errors become MCP results.
 */
export function createMcpServer({ config, sessions, logger, version, gate }: McpServerOptions): Server {
  const server = new Server(
    { name: "lspmcp", version },
    { capabilities: { ...SERVER_CAPABILITIES }, instructions: SERVER_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => LIST_RESULT);
  // Registered as the base Protocol registers any handler (the request parsed once against its
  // schema), not through Server's tools/call override, which parses the request a second time and
  // the result against CallToolResultSchema on every call: each result here is built to that shape
  // by toolResultShape or errorResult (tests/unit/mcp/call-tool-result.test.ts), and byte-bounded.
  const register = Protocol.prototype.setRequestHandler as unknown as Server["setRequestHandler"];
  register.call(server, CallToolRequestSchema, (request, extra) => {
    const tool = BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}; the tools are ${[...BY_NAME.keys()].join(", ")}`);
    const token = request.params._meta?.progressToken;
    const progress = token === undefined ? null : new ProgressReporter(token, extra.sendNotification, logger);
    const context = { config, sessions, signal: extra.signal, ...(progress ? { onProgress: progress.report } : {}) };
    return callTool(tool, request.params.arguments, context, logger, gate).finally(() => progress?.end());
  });
  return server;
}
