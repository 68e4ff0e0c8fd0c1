import { diagnosticsTool } from "./diagnostics.js";
import { documentSymbolsTool } from "./document-symbols.js";
import { hoverTool } from "./hover.js";
import { sessionRestartTool } from "./session-restart.js";
import { sessionStatusTool } from "./session-status.js";
import type { Tool } from "./tool-definition.js";
import { workspaceSymbolsTool } from "./workspace-symbols.js";

/**
 * The closed list of lspmcp's tools (CONTRACT §4). Nothing else is listed or callable; every
 * tool here only reads.
 */
export const TOOLS: readonly Tool[] = [
  sessionStatusTool,
  diagnosticsTool,
  hoverTool,
  documentSymbolsTool,
  workspaceSymbolsTool,
  sessionRestartTool,
];

export type { Tool, ToolContext, ToolDefinition } from "./tool-definition.js";
