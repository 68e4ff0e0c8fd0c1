import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";

/**
 * Is `value` a JSON-RPC 2.0 message as the MCP SDK's `JSONRPCMessageSchema` (1.32) accepts it:
 * a request (`id`, `method`, object `params`?), a notification (`method`, object `params`?), a
 * result (`id`, object `result`) or an error (`id`?, `error: {code, message, data?}`), each with
 * no other keys at the top, ids and codes being strings or safe integers. Written out by hand because it
 * runs on every message of every transport, where the zod union cost more than the rest of the
 * line's handling; the SDK still validates each request against the schema of its method.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (!isRecord(value) || value.jsonrpc !== "2.0") return false;
  if ("method" in value) {
    if (typeof value.method !== "string" || !(value.params === undefined || (isRecord(value.params) && validMeta(value.params)))) return false;
    return ("id" in value ? isId(value.id) : true) && keysWithin(value, REQUEST_KEYS);
  }
  if ("result" in value) return isId(value.id) && isRecord(value.result) && validMeta(value.result) && keysWithin(value, RESULT_KEYS);
  if (!isRecord(value.error) || !Number.isSafeInteger(value.error.code) || typeof value.error.message !== "string") return false;
  return ("id" in value ? isId(value.id) : true) && keysWithin(value, ERROR_KEYS);
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const RESULT_KEYS = new Set(["jsonrpc", "id", "result"]);
const ERROR_KEYS = new Set(["jsonrpc", "id", "error"]);

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The request a `notifications/cancelled` names (`params.requestId`, a string or a safe integer,
 * as the SDK's `CancelledNotificationSchema` has it); undefined for any other message.
 */
export function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled" || "id" in message) return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return isId(id) ? (id as RequestId) : undefined;
}

/** A result response in the key order of the SDK's Protocol (result first), so the bytes are the SDK's. */
export function resultMessage(id: RequestId, result: Record<string, unknown>): JSONRPCMessage {
  return { result, jsonrpc: "2.0", id } as JSONRPCMessage;
}

function isId(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

// `_meta`, where present, is an object whose progress token is a string or a safe integer and
// whose related task, where present, names its task id.
function validMeta(container: Record<string, unknown>): boolean {
  const meta = container._meta;
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  if (meta.progressToken !== undefined && !isId(meta.progressToken)) return false;
  const task = meta[RELATED_TASK];
  return task === undefined || (isRecord(task) && typeof task.taskId === "string");
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";

// The SDK's message schemas are strict: a key of no message kind makes the message invalid.
function keysWithin(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}
