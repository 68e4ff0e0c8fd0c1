import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Tool as BridgeTool } from "../tools/index.js";

/**
 * The `tools/list` entry of a tool, with JSON Schemas generated from its zod schemas. Draft-07
 * because that is what MCP clients' validators (the SDK's Ajv among them) accept everywhere.
 */
export function listedTool(tool: BridgeTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.inputSchema, "input") as Tool["inputSchema"],
    outputSchema: jsonSchemaOf(tool.outputSchema, "output") as Tool["outputSchema"],
    annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}
