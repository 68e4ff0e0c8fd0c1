import { z } from "zod";
import { ConfigSchema } from "./schema.js";

/**
 * The JSON Schema of bridge.toml for editors (draft 2020-12), generated from the zod schema. It
 * describes the file as written (`io: "input"`), so keys with defaults are optional.
 */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigSchema, { io: "input", target: "draft-2020-12" }) as Record<string, unknown>;
}

/**
 * The exact text of `config/bridge.schema.json`: two-space JSON with a final newline. Deterministic,
 * so that a test can tell when the committed file is stale.
 */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
