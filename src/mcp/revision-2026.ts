import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { isRecord, resultMessage } from "./json-rpc-shape.js";
import { SERVER_CAPABILITIES, SERVER_INSTRUCTIONS, SUPPORTED_PROTOCOL_VERSIONS } from "./server-identity.js";
import { TOOL_LIST } from "./tool-list.js";

/**
 * The facts of MCP revision 2026-07-28 that lspmcp answers by: no handshake, the protocol version
 * and the client's capabilities in every request's `_meta`, `server/discover`, `resultType` and the
 * server's identity in every result, cache hints on `tools/list`. Written against the revision's
 * schemas as `@modelcontextprotocol/server` 2.4.0 carries them.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

/** JSON-RPC error of the revision for a version the server does not speak. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

/**
 * How long a client may keep lspmcp's `tools/list` and `server/discover` answers: they depend on
 * the build alone, the same for every client (`public`), and change only with an upgrade.
 */
const LIST_TTL_MS = 3_600_000;

/** What a request is under the revision: an old one, a 2026 one to run, or one answered here and now. */
type Classified = { readonly kind: "legacy" } | { readonly kind: "modern" } | { readonly kind: "answer"; readonly reply: JSONRPCMessage };

/**
 * Tells an incoming request's revision by its `_meta` envelope and answers what the revision
 * defines without any session: `server/discover`, `tools/list`, `ping`, and the envelope's
 * errors (-32602 for a malformed one, -32022 for a version lspmcp does not speak). A request
 * without the envelope, or naming a pre-2026 version, is an old client's and left alone.
 */
export function classifyRequest(id: RequestId, method: string, params: unknown, version: string): Classified {
  const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
  const claimed = meta === undefined ? undefined : meta[PROTOCOL_VERSION_META_KEY];
  if (claimed === undefined) return method === "server/discover" ? { kind: "answer", reply: resultMessage(id, discoverResult(version)) } : { kind: "legacy" };
  if (typeof claimed === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(claimed)) return { kind: "legacy" };
  if (typeof claimed !== "string") return invalidEnvelope(id, `${PROTOCOL_VERSION_META_KEY}: expected a protocol version string`);
  if (!MODERN_PROTOCOL_VERSIONS.includes(claimed)) {
    const reply = errorMessage(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${claimed}`, {
      supported: [...MODERN_PROTOCOL_VERSIONS],
      requested: claimed,
    });
    return { kind: "answer", reply };
  }
  if (!isRecord(meta![CLIENT_CAPABILITIES_META_KEY])) return invalidEnvelope(id, `${CLIENT_CAPABILITIES_META_KEY}: missing`);
  switch (method) {
    case "server/discover":
      return { kind: "answer", reply: resultMessage(id, discoverResult(version)) };
    case "tools/list":
      return { kind: "answer", reply: resultMessage(id, stampResult({ ttlMs: LIST_TTL_MS, cacheScope: "public", tools: TOOL_LIST }, version)) };
    case "ping":
      return { kind: "answer", reply: resultMessage(id, stampResult({}, version)) };
    case "initialize":
      return { kind: "answer", reply: errorMessage(id, METHOD_NOT_FOUND, "Method not found: initialize is not part of protocol revision 2026-07-28") };
    default:
      return { kind: "modern" };
  }
}

/** `server/discover`: the versions a per-request envelope may name, what lspmcp offers, who it is. */
function discoverResult(version: string): Record<string, unknown> {
  return stampResult(
    {
      supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
      capabilities: SERVER_CAPABILITIES,
      instructions: SERVER_INSTRUCTIONS,
      ttlMs: LIST_TTL_MS,
      cacheScope: "public",
    },
    version,
  );
}

/**
 * A result as the revision sends it: the same keys, then `resultType` (always `complete`: lspmcp
 * never asks the client anything back) and `_meta` with the server's identity. What the result
 * held comes first and unchanged, so a tool's answer is the same bytes as for an old client.
 */
export function stampResult(result: Record<string, unknown>, version: string): Record<string, unknown> {
  const meta = isRecord(result._meta) ? result._meta : {};
  return { ...result, resultType: "complete", _meta: { ...meta, [SERVER_INFO_META_KEY]: { name: "lspmcp", version } } };
}

function invalidEnvelope(id: RequestId, problem: string): Classified {
  return { kind: "answer", reply: errorMessage(id, INVALID_PARAMS, `Invalid _meta envelope for protocol revision 2026-07-28: ${problem}`) };
}

function errorMessage(id: RequestId, code: number, message: string, data?: unknown): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}
