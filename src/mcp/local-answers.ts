import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { resultMessage } from "./json-rpc-shape.js";
import { initializeResult } from "./server-identity.js";
import { TOOL_LIST } from "./tool-list.js";

/** A request `serve` answers itself, and whether it was the agent's `initialize`. */
interface LocalAnswer {
  readonly reply: JSONRPCMessage;
  readonly initialize: boolean;
}

/**
 * The answer `serve` gives at once, without the SDK's server or any session, to a request whose
 * answer depends on nothing but the build: the first plausible `initialize` (the SDK's server
 * answers any other, as it always has), `tools/list` and `ping`. Byte for byte what the SDK's
 * server sends (tests/unit/mcp/sdk-conformance.test.ts holds the two equal); undefined for
 * every other request.
 */
export function answerLocally(request: JSONRPCRequest, version: string, initializeAnswered: boolean): LocalAnswer | undefined {
  if (request.method === "initialize") {
    if (initializeAnswered || !isPlausibleInitialize(request)) return undefined;
    return { reply: resultMessage(request.id, initializeResult(request.params.protocolVersion, version)), initialize: true };
  }
  if (request.method === "tools/list") return { reply: resultMessage(request.id, { tools: TOOL_LIST }), initialize: false };
  if (request.method === "ping") return { reply: resultMessage(request.id, {}), initialize: false };
  return undefined;
}

/**
 * An `initialize` whose params the SDK's server would accept; anything odd is left for the SDK's
 * server to answer as it always has.
 */
function isPlausibleInitialize(message: JSONRPCRequest): message is JSONRPCRequest & { params: { protocolVersion: string } } {
  const params = message.params as { protocolVersion?: unknown; capabilities?: unknown; clientInfo?: { name?: unknown; version?: unknown } } | undefined;
  return (
    typeof params?.protocolVersion === "string" &&
    typeof params.capabilities === "object" &&
    params.capabilities !== null &&
    typeof params.clientInfo?.name === "string" &&
    typeof params.clientInfo.version === "string"
  );
}
