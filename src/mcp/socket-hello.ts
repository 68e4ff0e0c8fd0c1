import { timingSafeEqual } from "node:crypto";
import type { JSONRPCMessage, JSONRPCNotification } from "@modelcontextprotocol/sdk/types.js";

/** The first message on the peer socket: who attaches, with the lease's secret. */
const HELLO_METHOD = "lspmcp/attach";

/** The hello an attached lspmcp sends first on the peer socket. */
export function helloMessage(token: string, pid: number): JSONRPCNotification {
  return { jsonrpc: "2.0", method: HELLO_METHOD, params: { token, pid } };
}

/**
 * The peer's pid when `message` is a hello carrying `token` (compared in constant time), else
 * undefined: the connection is then refused.
 */
export function helloPid(message: JSONRPCMessage, token: string): number | undefined {
  if (!("method" in message) || message.method !== HELLO_METHOD || "id" in message) return undefined;
  const params = message.params as { token?: unknown; pid?: unknown } | undefined;
  if (typeof params?.token !== "string" || !sameSecret(params.token, token)) return undefined;
  return Number.isSafeInteger(params.pid) && (params.pid as number) > 0 ? (params.pid as number) : undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
