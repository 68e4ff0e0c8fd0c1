// What lspmcp does by hand in place of the pinned MCP SDK, held against the SDK itself: the
// answers `serve` gives without the SDK's server (initialize, tools/list, ping), which initialize
// it answers at all, and which request a cancellation names. An SDK upgrade that changes any of
// them fails here.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CancelledNotificationSchema, InitializeRequestSchema, type JSONRPCMessage, type JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import type { Logger } from "../../../src/contract/logger.js";
import { createMcpServer } from "../../../src/mcp/create-mcp-server.js";
import { cancelledRequestId } from "../../../src/mcp/json-rpc-shape.js";
import { answerLocally } from "../../../src/mcp/local-answers.js";

const VERSION = "9.9.9";
const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

function initialize(id: number, params: unknown): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method: "initialize", params } as JSONRPCRequest;
}

const client = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } };

/** The SDK's server as lspmcp builds it, answering `requests` in turn; each answer as the SDK built it. */
async function sdkAnswers(requests: readonly JSONRPCRequest[]): Promise<JSONRPCMessage[]> {
  // No tool is called, so the server needs neither a config nor sessions.
  const server = createMcpServer({ config: {} as never, sessions: {} as never, logger: quiet, version: VERSION });
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const answers: JSONRPCMessage[] = [];
  let arrived: (() => void) | undefined;
  ours.onmessage = (message) => {
    answers.push(message);
    arrived?.();
  };
  await server.connect(theirs);
  await ours.start();
  for (const request of requests) {
    const answered = new Promise<void>((resolve) => (arrived = resolve));
    await ours.send(request);
    await answered;
  }
  await server.close();
  return answers;
}

describe("the local answers are the SDK server's, byte for byte", () => {
  test.each(["2025-06-18", "2024-11-05", "2025-11-25", "1999-01-01"])(
    "initialize asking for protocol %s, then tools/list and ping",
    async (protocolVersion) => {
      const requests: JSONRPCRequest[] = [
        initialize(1, { ...client, protocolVersion }),
        { jsonrpc: "2.0", id: "list", method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "ping" },
      ];
      const sdk = await sdkAnswers(requests);
      const local = requests.map((request, i) => answerLocally(request, VERSION, i > 0)?.reply);
      expect(local.map((reply) => JSON.stringify(reply))).toEqual(sdk.map((answer) => JSON.stringify(answer)));
    },
  );

  test("an initialize is answered locally exactly when the SDK's schema accepts it; a second one never", () => {
    const samples: unknown[] = [
      client,
      { ...client, capabilities: { roots: {} }, clientInfo: { name: "t", version: "0", title: "T" } },
      { ...client, protocolVersion: 5 },
      { ...client, capabilities: null },
      { ...client, clientInfo: { name: "t" } },
      { protocolVersion: "2025-06-18", clientInfo: { name: "t", version: "0" } },
      undefined,
    ];
    for (const params of samples) {
      const request = initialize(1, params);
      const sdk = InitializeRequestSchema.safeParse(request).success;
      expect(answerLocally(request, VERSION, false) !== undefined, JSON.stringify(params)).toBe(sdk);
      expect(answerLocally(request, VERSION, true)).toBeUndefined();
    }
  });

  test("every other request is left to the SDK's server", () => {
    for (const method of ["tools/call", "resources/list", "prompts/list", "completion/complete"]) {
      expect(answerLocally({ jsonrpc: "2.0", id: 1, method }, VERSION, true)).toBeUndefined();
    }
  });
});

describe("the request a cancellation names", () => {
  test("agrees with the SDK's CancelledNotificationSchema", () => {
    const samples: unknown[] = [
      { requestId: 3 },
      { requestId: "a", reason: "r" },
      { requestId: 1.5 },
      { requestId: null },
      { requestId: {} },
      {},
      undefined,
      { requestId: 2 ** 60 },
    ];
    for (const params of samples) {
      const message = { jsonrpc: "2.0", method: "notifications/cancelled", params } as JSONRPCMessage;
      const sdk = CancelledNotificationSchema.safeParse(message);
      expect(cancelledRequestId(message), JSON.stringify(params)).toEqual(sdk.success ? sdk.data.params?.requestId : undefined);
    }
  });
});
