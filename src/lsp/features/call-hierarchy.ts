import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  type CallHierarchyItem,
  type Position,
  type Range,
} from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability, withCapability } from "./capability.js";

/** Capability and method of `textDocument/prepareCallHierarchy`, for gating and errors. */
export const CALL_HIERARCHY_FEATURE = { capability: "callHierarchyProvider", method: CallHierarchyPrepareRequest.method } as const;

type CallDirection = "incoming" | "outgoing";

/** One caller (incoming) or callee (outgoing), with where the calls are. */
interface CallEdge {
  readonly item: CallHierarchyItem;
  /** Ranges in the caller's file (incoming) or in the symbol's own file (outgoing). */
  readonly callSites: readonly Range[];
}

/** The symbol at the position and one level of its calls; `symbol` null when nothing is there. */
interface CallHierarchyAnswer {
  readonly symbol: CallHierarchyItem | null;
  readonly calls: readonly CallEdge[];
}

/**
 * `prepareCallHierarchy`, then one level of incoming or outgoing calls of its first item.
 * `NotSupported` without `callHierarchyProvider`, and also when the server answers the calls
 * request with MethodNotFound (clangd 14 announces the capability but has no outgoing calls).
 */
export async function requestCallHierarchy(
  client: LspClient,
  uri: string,
  position: Position,
  direction: CallDirection,
  options: RequestOptions,
): Promise<CallHierarchyAnswer> {
  requireCapability(client, "callHierarchyProvider", CallHierarchyPrepareRequest.method);
  const prepared = await client.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position }, options);
  const symbol = prepared?.[0];
  if (!symbol) return { symbol: null, calls: [] };
  if (direction === "incoming") {
    const method = CallHierarchyIncomingCallsRequest.method;
    const calls = await withCapability("callHierarchyProvider", method, () =>
      client.request(CallHierarchyIncomingCallsRequest.type, { item: symbol }, options),
    );
    return { symbol, calls: (calls ?? []).map((call) => ({ item: call.from, callSites: call.fromRanges })) };
  }
  const method = CallHierarchyOutgoingCallsRequest.method;
  const calls = await withCapability("callHierarchyProvider", method, () => client.request(CallHierarchyOutgoingCallsRequest.type, { item: symbol }, options));
  return { symbol, calls: (calls ?? []).map((call) => ({ item: call.to, callSites: call.fromRanges })) };
}
