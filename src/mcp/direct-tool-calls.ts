import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type CallToolResult, type JSONRPCMessage, type RequestId, type ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { cancelledRequestId, isRecord, resultMessage } from "./json-rpc-shape.js";

/** One `tools/call` request, its params checked as the SDK's `CallToolRequestSchema` checks them. */
interface ToolCallRequest {
  readonly name: string;
  /** As sent; each tool validates its own arguments (`InvalidArguments`). */
  readonly arguments: Record<string, unknown> | undefined;
  readonly progressToken: string | number | undefined;
}

/**
 * Runs one call. Resolves to its result; a thrown error with a JSON-RPC `code` (an `McpError`)
 * becomes a JSON-RPC error response, as the SDK would send it.
 */
export type ToolCallRunner = (
  request: ToolCallRequest,
  signal: AbortSignal,
  notify: (notification: ServerNotification) => Promise<void>,
) => Promise<CallToolResult>;

/**
 * Takes `tools/call` requests (and the cancellations of them) off `transport` before the SDK's
 * Protocol sees them, once the SDK is connected to it; every other message goes on to the SDK.
 *
 * Why: the Protocol tests each incoming message against four zod schemas to tell its kind
 * (result, error, request, notification) and parses each request against its method's schema,
 * about a tenth of the bridge's CPU on a hover. The transports have already checked the
 * message's JSON-RPC shape by hand (`json-rpc-shape.ts`); here the params are checked as the
 * SDK's schema does, and the call gets what the SDK's handler got: a signal aborted by
 * `notifications/cancelled` or by the transport closing, notifications sent on the request's own
 * stream, no answer at all once cancelled, and the answer's bytes as the SDK writes them.
 */
export function installDirectToolCalls(transport: Transport, run: ToolCallRunner, onError: (error: Error) => void): void {
  const toSdk = transport.onmessage;
  const closeSdk = transport.onclose;
  const inFlight = new Map<RequestId, AbortController>();

  transport.onclose = () => {
    for (const controller of inFlight.values()) controller.abort();
    inFlight.clear();
    closeSdk?.();
  };
  transport.onmessage = (message, extra) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) {
      answer(message.id, message.params);
      return;
    }
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) inFlight.get(cancelled)?.abort();
    toSdk?.(message, extra);
  };

  function send(message: JSONRPCMessage, relatedRequestId: RequestId): Promise<void> {
    return transport.send(message, { relatedRequestId });
  }

  function answer(id: RequestId, params: unknown): void {
    const request = toolCallRequest(params);
    if (typeof request === "string") {
      send({ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: `MCP error ${ErrorCode.InvalidParams}: ${request}` } }, id).catch(failedSend);
      return;
    }
    const controller = new AbortController();
    inFlight.set(id, controller);
    const notify = async (notification: ServerNotification): Promise<void> => {
      if (controller.signal.aborted) return;
      await send({ ...notification, jsonrpc: "2.0" } as JSONRPCMessage, id);
    };
    run(request, controller.signal, notify)
      .then(
        (result) => (controller.signal.aborted ? undefined : send(resultMessage(id, result), id)),
        (error: unknown) => (controller.signal.aborted ? undefined : send(errorResponse(id, error), id)),
      )
      .catch(failedSend)
      .finally(() => {
        if (inFlight.get(id) === controller) inFlight.delete(id);
      });
  }

  function failedSend(error: unknown): void {
    onError(new Error(`Failed to send a tools/call answer: ${String(error)}`));
  }
}

/** The request's params, or why they are not `CallToolRequestParams`. */
export function toolCallRequest(params: unknown): ToolCallRequest | string {
  if (!isRecord(params)) return "tools/call params must be an object";
  if (typeof params.name !== "string") return "tools/call params.name must be a string";
  if (params.arguments !== undefined && !isRecord(params.arguments)) return "tools/call params.arguments must be an object";
  const meta = params._meta;
  if (meta !== undefined && !isRecord(meta)) return "tools/call params._meta must be an object";
  const token = meta?.progressToken;
  if (token !== undefined && typeof token !== "string" && !Number.isSafeInteger(token))
    return "tools/call params._meta.progressToken must be a string or an integer";
  return { name: params.name, arguments: params.arguments as Record<string, unknown> | undefined, progressToken: token as string | number | undefined };
}

// The SDK's shape for a handler that threw: its JSON-RPC code when it has one, else -32603.
function errorResponse(id: RequestId, error: unknown): JSONRPCMessage {
  const code = (error as { code?: unknown } | null)?.code;
  const data = (error as { data?: unknown } | null)?.data;
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: typeof code === "number" && Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
      message: error instanceof Error && error.message ? error.message : "Internal error",
      ...(data !== undefined ? { data } : {}),
    },
  };
}
