import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig } from "../config/types.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { TOOLS } from "../tools/index.js";
import { callTool, type CallAdmission } from "./call-tool.js";
import { ProgressReporter } from "./progress-reporter.js";
import { SERVER_CAPABILITIES, SERVER_INSTRUCTIONS } from "./server-identity.js";
import { TOOL_LIST } from "./tool-list.js";
import { installDirectToolCalls, type ToolCallRunner } from "./direct-tool-calls.js";

interface McpServerOptions {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  readonly logger: Logger;
  readonly version: string;
  /** Where each tool call waits for its turn (the shared server's fair scheduler); none when standalone. */
  readonly admission?: CallAdmission;
}

// The tools' JSON Schemas were generated once, from their zod schemas, by `npm run schema`.
const LIST_RESULT = { tools: TOOL_LIST };
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * The MCP server: `tools/list` is the closed list (answered without touching any language
 * server), `tools/call` runs one of them. The only place where bridge errors become MCP results.
 * Tool calls take the direct queue (`direct-tool-calls.ts`) once connected; the SDK's Server handles
 * everything else (initialize, ping, tools/list, notifications).
 */
export function createMcpServer({ config, sessions, logger, version, admission }: McpServerOptions): Server {
  const runToolCall: ToolCallRunner = async (request, signal, notify) => {
    const tool = BY_NAME.get(request.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.name}; the tools are ${[...BY_NAME.keys()].join(", ")}`);
    const progress = request.progressToken === undefined ? null : new ProgressReporter(request.progressToken, notify, logger);
    const context = { config, sessions, signal, ...(progress ? { onProgress: progress.report } : {}) };
    return callTool(tool, request.arguments, context, logger, admission).finally(() => progress?.end());
  };
  const server = new LspmcpServer(runToolCall, version);
  server.setRequestHandler(ListToolsRequestSchema, () => LIST_RESULT);
  return server;
}

class LspmcpServer extends Server {
  constructor(
    private readonly runToolCall: ToolCallRunner,
    version: string,
  ) {
    super({ name: "lspmcp", version }, { capabilities: { ...SERVER_CAPABILITIES }, instructions: SERVER_INSTRUCTIONS });
  }

  // The direct path goes in when the SDK has set its handlers and before the transport starts:
  // a tools/call read in the same chunk as a peer's hello (no handshake before it, as a 2026
  // client sends) must not reach the SDK's Protocol, which has no handler for it.
  override async connect(transport: Transport): Promise<void> {
    const start = transport.start.bind(transport);
    transport.start = async () => {
      installDirectToolCalls(transport, this.runToolCall, (error) => this.onerror?.(error));
      await start();
    };
    await super.connect(transport);
  }
}
