import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { installDirectToolCalls, toolCallRequest, type ToolCallRunner } from "../../../src/mcp/direct-tool-calls.js";

/** A transport that records what is sent and lets the test deliver messages. */
function memoryTransport() {
  const sent: { message: JSONRPCMessage; options: TransportSendOptions | undefined }[] = [];
  const toSdk: JSONRPCMessage[] = [];
  let closedSdk = 0;
  const transport: Transport = {
    start: async () => {},
    close: async () => transport.onclose?.(),
    send: async (message, options) => {
      sent.push({ message, options });
    },
    onmessage: (message) => toSdk.push(message),
    onclose: () => closedSdk++,
  };
  return { transport, sent, toSdk, closedSdk: () => closedSdk };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("the direct tools/call path", () => {
  test("answers a call with the SDK's response shape and passes every other message to the SDK", async () => {
    const { transport, sent, toSdk } = memoryTransport();
    installDirectToolCalls(
      transport,
      async (request) => ({ content: [{ type: "text", text: `ran ${request.name}` }] }),
      () => {},
    );
    transport.onmessage!({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "hover", arguments: { path: "a.ts" } } });
    transport.onmessage!({ jsonrpc: "2.0", id: 8, method: "tools/list" });
    transport.onmessage!({ jsonrpc: "2.0", method: "notifications/initialized" });
    await settled();
    expect(JSON.stringify(sent.map((s) => s.message))).toBe('[{"result":{"content":[{"type":"text","text":"ran hover"}]},"jsonrpc":"2.0","id":7}]');
    expect(sent[0]!.options).toEqual({ relatedRequestId: 7 });
    expect(toSdk.map((m) => ("method" in m ? m.method : null))).toEqual(["tools/list", "notifications/initialized"]);
  });

  test("params the SDK's schema refuses are -32602 and the runner never runs", async () => {
    const { transport, sent } = memoryTransport();
    let ran = 0;
    installDirectToolCalls(
      transport,
      async () => (ran++, { content: [] }),
      () => {},
    );
    const bad = [
      undefined,
      { name: 5 },
      { name: "hover", arguments: [1] },
      { name: "hover", arguments: "x" },
      { name: "hover", _meta: { progressToken: 1.5 } },
    ];
    bad.forEach((params, id) => transport.onmessage!({ jsonrpc: "2.0", id, method: "tools/call", ...(params ? { params } : {}) } as JSONRPCMessage));
    await settled();
    expect(ran).toBe(0);
    expect(sent.map((s) => (s.message as any).error.code)).toEqual([-32602, -32602, -32602, -32602, -32602]);
  });

  test("a thrown McpError keeps its code; any other failure is -32603", async () => {
    const { transport, sent } = memoryTransport();
    installDirectToolCalls(
      transport,
      async (request) => {
        if (request.name === "coded") throw Object.assign(new Error("MCP error -32602: unknown tool"), { code: -32602 });
        throw new Error("boom");
      },
      () => {},
    );
    transport.onmessage!({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "coded" } });
    transport.onmessage!({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "other" } });
    await settled();
    expect(sent.map((s) => s.message)).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "MCP error -32602: unknown tool" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "boom" } },
    ]);
  });

  test("a cancelled call's signal is aborted, it sends nothing more, and the SDK still hears the cancellation", async () => {
    const { transport, sent, toSdk } = memoryTransport();
    let finish!: () => void;
    let seen!: AbortSignal;
    const runner: ToolCallRunner = (_request, signal, notify) => {
      seen = signal;
      return new Promise((resolve) => {
        finish = () => {
          void notify({ method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
          resolve({ content: [] });
        };
      });
    };
    installDirectToolCalls(transport, runner, () => {});
    transport.onmessage!({ jsonrpc: "2.0", id: "c", method: "tools/call", params: { name: "hover" } });
    transport.onmessage!({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c" } });
    expect(seen.aborted).toBe(true);
    finish();
    await settled();
    expect(sent).toEqual([]);
    expect(toSdk).toHaveLength(1);
  });

  test("progress goes out on the request's stream, and closing the transport aborts calls in flight", async () => {
    const { transport, sent, closedSdk } = memoryTransport();
    let seen!: AbortSignal;
    installDirectToolCalls(
      transport,
      async (_request, signal, notify) => {
        seen = signal;
        await notify({ method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2 } });
        return new Promise(() => {});
      },
      () => {},
    );
    transport.onmessage!({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "diagnostics", _meta: { progressToken: "t" } } });
    await settled();
    expect(sent).toEqual([
      {
        message: { method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2 }, jsonrpc: "2.0" },
        options: { relatedRequestId: 3 },
      },
    ]);
    await transport.close();
    expect(seen.aborted).toBe(true);
    expect(closedSdk()).toBe(1);
  });

  test("the params check agrees with the SDK's CallToolRequestSchema", async () => {
    const { CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const cases: unknown[] = [
      { name: "a" },
      { name: "a", arguments: {} },
      { name: "a", arguments: null },
      { name: "a", arguments: [] },
      { name: 1 },
      {},
      [],
      { name: "a", _meta: { progressToken: "x" } },
      { name: "a", _meta: { progressToken: 2 } },
      { name: "a", _meta: { progressToken: 2.5 } },
      { name: "a", _meta: { progressToken: null } },
      { name: "a", _meta: "m" },
    ];
    for (const params of cases) {
      const sdk = CallToolRequestSchema.safeParse({ method: "tools/call", params }).success;
      expect([params, typeof toolCallRequest(params) !== "string"]).toEqual([params, sdk]);
    }
  });
});
