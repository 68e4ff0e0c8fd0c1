import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { PositionSchema, RangeSchema } from "../tools/common-schemas.js";
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
    annotations: toolAnnotations(tool),
  };
}

/**
 * What a tool's annotations promise (CONTRACT §4): every tool only reads and touches nothing
 * outside the bridge; each is idempotent unless its definition says otherwise (`session_restart`).
 * A client, or lspmcp's own forwarder, may re-send a call only when `idempotentHint` is true.
 */
function toolAnnotations(tool: BridgeTool): NonNullable<Tool["annotations"]> {
  return { readOnlyHint: true, destructiveHint: false, idempotentHint: tool.idempotent, openWorldHint: false };
}

/**
 * The shapes output schemas share, each written once under `definitions` and referenced where
 * used (a location item holds two ranges of two positions each). Output schemas carry no
 * descriptions: clients check results against them; a model reads the text, the tool's
 * description and its input schema. Input schemas stay inline (some clients resolve no `$ref`).
 */
const OUTPUT_DEFINITIONS = z.registry<{ id: string }>();
OUTPUT_DEFINITIONS.add(PositionSchema, { id: "position" });
OUTPUT_DEFINITIONS.add(RangeSchema, { id: "range" });

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: "draft-7",
    io,
    unrepresentable: "any",
    ...(io === "output" ? { metadata: OUTPUT_DEFINITIONS } : {}),
    override: ({ jsonSchema }) => withoutSafeIntegerBounds(jsonSchema as Record<string, unknown>),
  }) as Record<string, unknown>;
  return singleTyped(rest) as Record<string, unknown>;
}

/**
 * zod's integers are JavaScript's safe integers, and it writes that as `minimum: -(2^53 - 1)` and
 * `maximum: 2^53 - 1` on every one. No JSON client can send an integer past those anyway (it would
 * not survive its own number type), so they are noise in every conversation: left out, while a
 * bound of our own (`limit` 1..1000, a line from 1) stays.
 */
function withoutSafeIntegerBounds(node: Record<string, unknown>): void {
  if (node.type !== "integer") return;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
}

/**
 * Rewrites every `type: [T, "null"]` (zod's nullable) as `anyOf: [{type: T, …}, {type: "null"}]`:
 * the same schema, but one that clients mapping schemas onto a single-`type` dialect (Gemini's
 * OpenAPI subset) can read. The MCP Inspector's `--strict` check warns about the array form.
 */
function singleTyped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTyped);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node as Record<string, unknown>).map(
    ([key, value]) => [key, key === "enum" || key === "const" || key === "default" ? value : singleTyped(value)] as const,
  );
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const type = object.type;
  if (!Array.isArray(type) || type.length < 2) return object;
  // Annotations stay on the outside; constraints go with the branch of their own type.
  const { type: _types, description, title, default: fallback, ...constraints } = object;
  const outer: Record<string, unknown> = {};
  if (description !== undefined) outer.description = description;
  if (title !== undefined) outer.title = title;
  if (fallback !== undefined) outer.default = fallback;
  outer.anyOf = (type as string[]).map((one) => (one === "null" ? { type: "null" } : { type: one, ...constraints }));
  return outer;
}
