import { ImplementationRequest, type Position } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";
import { targetsOf, type TargetLocation } from "./location-answer.js";

/** Capability and method of `textDocument/implementation`, for gating and errors. */
export const IMPLEMENTATION_FEATURE = { capability: "implementationProvider", method: ImplementationRequest.method } as const;

/**
 * The implementations of the symbol at an LSP position, as targets in the server's order (`Location` and
 * `LocationLink` answers alike); none is an empty list. `NotSupported` without `implementationProvider`.
 */
export async function requestImplementation(client: LspClient, uri: string, position: Position, options: RequestOptions): Promise<TargetLocation[]> {
  requireCapability(client, "implementationProvider", ImplementationRequest.method);
  return targetsOf(await client.request(ImplementationRequest.type, { textDocument: { uri }, position }, options));
}
