import { DefinitionRequest, type Position } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";
import { targetsOf, type TargetLocation } from "./location-answer.js";

/** Capability and method of `textDocument/definition`, for gating and errors. */
export const DEFINITION_FEATURE = { capability: "definitionProvider", method: DefinitionRequest.method } as const;

/**
 * The definition of the symbol at an LSP position, as targets in the server's order (`Location` and
 * `LocationLink` answers alike); none is an empty list. `NotSupported` without `definitionProvider`.
 */
export async function requestDefinition(client: LspClient, uri: string, position: Position, options: RequestOptions): Promise<TargetLocation[]> {
  requireCapability(client, "definitionProvider", DefinitionRequest.method);
  return targetsOf(await client.request(DefinitionRequest.type, { textDocument: { uri }, position }, options));
}
