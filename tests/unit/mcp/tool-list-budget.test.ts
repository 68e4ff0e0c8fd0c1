// What every conversation pays for lspmcp (CONTRACT §4, a lean tool list): the `tools/list`
// answer as it goes over the wire, and the part of it a model reads.
import { describe, expect, test } from "vitest";
import { TOOL_LIST } from "../../../src/mcp/tool-list.js";

const KiB = 1024;
/** CONTRACT §4: names, titles, descriptions and input schemas. */
const MODEL_BUDGET = 12 * KiB;
/**
 * The whole answer, output schemas and annotations included. The contract's 24 KiB cannot hold
 * exact output schemas for 14 tools beside a 12 KiB model part (docs/contributors/contract-notes.md).
 */
const WHOLE_BUDGET = 32 * KiB;

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

/** Every node of a JSON Schema, depth first. */
function* nodes(schema: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(schema)) for (const item of schema) yield* nodes(item);
  else if (schema !== null && typeof schema === "object") {
    yield schema as Record<string, unknown>;
    for (const value of Object.values(schema)) yield* nodes(value);
  }
}

describe("the tool list stays lean", () => {
  test(`what a model reads is at most ${MODEL_BUDGET / KiB} KiB`, () => {
    const read = TOOL_LIST.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));
    expect(bytes(read)).toBeLessThanOrEqual(MODEL_BUDGET);
  });

  test(`the whole tools/list answer is at most ${WHOLE_BUDGET / KiB} KiB`, () => {
    expect(bytes({ tools: TOOL_LIST })).toBeLessThanOrEqual(WHOLE_BUDGET);
  });

  test("every argument is described, and no input schema needs a $ref resolved", () => {
    for (const tool of TOOL_LIST) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) expect(property.description, `${tool.name}.${name}`).toMatch(/\S/);
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain("$ref");
    }
  });

  test("no integer carries JavaScript's safe-integer bounds; the bounds that matter stay", () => {
    for (const tool of TOOL_LIST) {
      for (const node of [...nodes(tool.inputSchema), ...nodes(tool.outputSchema)]) {
        expect(node.maximum, tool.name).not.toBe(Number.MAX_SAFE_INTEGER);
        expect(node.minimum, tool.name).not.toBe(Number.MIN_SAFE_INTEGER);
      }
    }
    const definition = TOOL_LIST.find((tool) => tool.name === "definition")!;
    expect(definition.inputSchema.properties).toMatchObject({
      line: { type: "integer", minimum: 1 },
      limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
    });
  });
});
