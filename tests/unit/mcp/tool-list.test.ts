import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { SUPPORTED_PROTOCOL_VERSIONS as OURS } from "../../../src/mcp/server-identity.js";
import { TOOL_LIST } from "../../../src/mcp/tool-list.js";
import { listedTool } from "../../../src/mcp/tool-schemas.js";
import { TOOLS } from "../../../src/tools/index.js";

describe("what lspmcp answers without a session", () => {
  test("the generated tools/list is the tools' zod schemas as JSON Schema, byte for byte (else run `npm run schema`)", () => {
    expect(JSON.stringify(TOOL_LIST)).toBe(JSON.stringify(TOOLS.map(listedTool)));
  });

  test("the protocol versions answered by an attached serve are the pinned SDK's, newest first", () => {
    expect(OURS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(OURS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });
});
