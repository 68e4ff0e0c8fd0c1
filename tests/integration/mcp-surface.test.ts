import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
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
