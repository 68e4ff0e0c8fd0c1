import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { errorResult } from "../../../src/mcp/call-tool.js";
import { toolResultShape } from "../../../src/tools/bounded-answer.js";

// The SDK's Server would validate every tools/call result against CallToolResultSchema (and
// return its parsed copy); lspmcp registers its handler without that step, so both shapes it
// sends must be valid as they are, and the schema's copy must serialise to the same bytes.
describe("tools/call results are the SDK's CallToolResult as built", () => {
  test.each([
    ["an answer", toolResultShape({ structured: { items: [{ name: "é", depth: 0 }], total: 1, returned: 1, offset: 0 }, text: "1 of 1 symbols" })],
    ["an error", errorResult(new BridgeError("InvalidArguments", "bad", { fields: ["line"] }))],
  ])("%s", (_, result) => {
    const parsed = CallToolResultSchema.safeParse(result);
    expect(parsed.success).toBe(true);
    expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(result));
  });
});
