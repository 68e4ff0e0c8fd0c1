import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { isJsonRpcMessage } from "../../../src/mcp/json-rpc-shape.js";

// Every kind of message, and every way of breaking one: the hand-written check must agree with
// the SDK's schema on each, since it stands in for it on every transport.
const valid: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hover", arguments: { path: "a.ts" } } },
  { jsonrpc: "2.0", id: "x", method: "ping" },
  { jsonrpc: "2.0", id: 0, method: "m", params: { _meta: { progressToken: "t" } } },
  { jsonrpc: "2.0", id: 0, method: "m", params: { _meta: { progressToken: 7, other: 1, "io.modelcontextprotocol/related-task": { taskId: "a" } } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "r" } },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: "a", result: { content: [], _meta: { progressToken: 1 } } },
  { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "m" } },
  { jsonrpc: "2.0", error: { code: -32700, message: "m", data: { any: 1 } } },
  { jsonrpc: "2.0", id: -5, method: "m", params: {} },
  { jsonrpc: "2.0", id: 1, error: { code: 1, message: "m", extra: 1 } },
];
const invalid: unknown[] = [
  null,
  [],
  "text",
  7,
  [{ jsonrpc: "2.0", method: "m" }],
  {},
  { jsonrpc: "1.0", id: 1, method: "m" },
  { id: 1, method: "m" },
  { jsonrpc: "2.0", id: 1.5, method: "m" },
  { jsonrpc: "2.0", id: null, method: "m" },
  { jsonrpc: "2.0", id: true, method: "m" },
  { jsonrpc: "2.0", id: 2 ** 60, method: "m" },
  { jsonrpc: "2.0", id: 1, method: 5 },
  { jsonrpc: "2.0", id: 1, method: "m", params: [1, 2] },
  { jsonrpc: "2.0", id: 1, method: "m", params: null },
  { jsonrpc: "2.0", id: 1, method: "m", params: "p" },
  { jsonrpc: "2.0", id: 1, method: "m", extra: 1 },
  { jsonrpc: "2.0", method: "m", extra: 1 },
  { jsonrpc: "2.0", id: 1, method: "m", result: {} },
  { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: "x" } },
  { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { progressToken: null } } },
  { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: 1 } } } },
  { jsonrpc: "2.0", id: 1, result: [] },
  { jsonrpc: "2.0", id: 1, result: null },
  { jsonrpc: "2.0", result: {} },
  { jsonrpc: "2.0", id: null, result: {} },
  { jsonrpc: "2.0", id: 1, result: {}, extra: 1 },
  { jsonrpc: "2.0", id: 1, result: { _meta: [] } },
  { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: "1", message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: 1 } },
  { jsonrpc: "2.0", id: null, error: { code: 1, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: "e" },
  { jsonrpc: "2.0", id: 1, error: { code: 1, message: "m" }, result: {} },
  { jsonrpc: "2.0", id: 1 },
];

describe("isJsonRpcMessage", () => {
  test.each(valid.map((value) => [JSON.stringify(value), value]))("accepts %s, as the SDK's schema does", (_, value) => {
    expect(JSONRPCMessageSchema.safeParse(value).success).toBe(true);
    expect(isJsonRpcMessage(value)).toBe(true);
  });
  test.each(invalid.map((value) => [JSON.stringify(value), value]))("refuses %s, as the SDK's schema does", (_, value) => {
    expect(JSONRPCMessageSchema.safeParse(value).success).toBe(false);
    expect(isJsonRpcMessage(value)).toBe(false);
  });
});
