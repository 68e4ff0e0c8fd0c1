import { ReferencesRequest, type Position } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";
import { targetsOf, type TargetLocation } from "./location-answer.js";

/** Capability and method of `textDocument/references`, for gating and errors. */
export const REFERENCES_FEATURE = { capability: "referencesProvider", method: ReferencesRequest.method } as const;

/**
 * Every reference to the symbol at an LSP position, the declaration included when asked, in the
 * server's order. `NotSupported` without `referencesProvider`.
 */
export async function requestReferences(
  client: LspClient,
  uri: string,
  position: Position,
  includeDeclaration: boolean,
  options: RequestOptions,
): Promise<TargetLocation[]> {
  requireCapability(client, "referencesProvider", ReferencesRequest.method);
  const answer = await client.request(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration } }, options);
  return targetsOf(answer);
}
