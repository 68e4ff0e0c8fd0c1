import { callHierarchyTool } from "./call-hierarchy.js";
import { codeActionsTool } from "./code-actions.js";
import { declarationTool } from "./declaration.js";
import { definitionTool } from "./definition.js";
import { diagnosticsTool } from "./diagnostics.js";
import { documentSymbolsTool } from "./document-symbols.js";
import { hoverTool } from "./hover.js";
import { implementationTool } from "./implementation.js";
import { referencesTool } from "./references.js";
import { renamePreviewTool } from "./rename-preview.js";
import { sessionRestartTool } from "./session-restart.js";
import { sessionStatusTool } from "./session-status.js";
import type { Tool } from "./tool-definition.js";
import { typeDefinitionTool } from "./type-definition.js";
import { workspaceSymbolsTool } from "./workspace-symbols.js";

/**
 * The closed list of lspmcp's tools (CONTRACT §4 and §4.1). Nothing else is listed or callable; every
 * tool here only reads.
 */
export const TOOLS: readonly Tool[] = [
  sessionStatusTool,
  diagnosticsTool,
  hoverTool,
  documentSymbolsTool,
  workspaceSymbolsTool,
  definitionTool,
  declarationTool,
  typeDefinitionTool,
  implementationTool,
  referencesTool,
  callHierarchyTool,
  codeActionsTool,
  renamePreviewTool,
  sessionRestartTool,
];

export type { Tool, ToolDefinition } from "./tool-definition.js";
