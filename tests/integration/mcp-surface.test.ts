import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { childrenOf } from "../helpers/proc.js";
import { copyFixtureWorkspace, polyConfig } from "../helpers/workspace.js";

let bridge: Bridge;

beforeAll(async () => {
  bridge = await startBridge(writeConfig(polyConfig(copyFixtureWorkspace("poly"))));
});
afterAll(async () => bridge?.close());

describe("the MCP surface", () => {
  test("tools/list is the closed list, read-only, with input and output schemas", async () => {
    const { tools } = await bridge.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "session_status",
      "diagnostics",
      "hover",
      "document_symbols",
      "workspace_symbols",
      "definition",
      "declaration",
      "type_definition",
      "implementation",
      "references",
      "call_hierarchy",
      "code_actions",
      "rename_preview",
      "session_restart",
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
  });

  test("input schemas an agent can read: 1-based positions, bounded pages with defaults, a description on every argument", async () => {
    const { tools } = await bridge.client.listTools();
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${name}`).toEqual(expect.any(String));
        if (name === "line" || name === "column") expect(schema).toMatchObject({ type: "integer", minimum: 1 });
        if (name === "limit") expect(schema).toMatchObject({ type: "integer", minimum: 1, maximum: 1000, default: 100 });
        if (name === "offset") expect(schema).toMatchObject({ type: "integer", minimum: 0, default: 0 });
      }
      // No `type: [T, "null"]` anywhere: clients with single-type schema dialects reject it.
      expect(JSON.stringify([tool.inputSchema, tool.outputSchema])).not.toMatch(/"type":\[/);
    }
    const hover = tools.find((tool) => tool.name === "hover")!;
    // A position is `line` + `column` or `symbol` (CONTRACT §4.1), so only `path` is required.
    expect(hover.inputSchema.required).toEqual(["path"]);
    expect(Object.keys(hover.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["line", "column", "symbol"]));
  });

  test("annotations tell the truth: session_restart is read-only but not idempotent; every other tool is both", async () => {
    const { tools } = await bridge.client.listTools();
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: tool.name !== "session_restart" });
    }
  });

  test("a line or column below 1 is InvalidArguments naming the field", async () => {
    const error = await bridge.fail("hover", { path: "src/shapes.ts", line: 0, column: 1 });
    expect(error.code).toBe("InvalidArguments");
    expect(JSON.stringify(error.details)).toContain("line");
  });

  test("initialize and tools/list start no language server", async () => {
    await bridge.client.listTools();
    expect(childrenOf(bridge.pid)).toEqual([]);
    const { sessions } = await bridge.ok("session_status");
    expect(sessions.every((session: any) => session.state === "idle")).toBe(true);
  });

  test("results carry a short text rendering beside structuredContent", async () => {
    const result = await bridge.call("session_status");
    expect(result.content[0]?.type).toBe("text");
    expect(result.content[0]?.text).toContain("poly/typescript: idle");
  });
});
