import { TypeDefinitionRequest, type Position } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";
import { targetsOf, type TargetLocation } from "./location-answer.js";

/** Capability and method of `textDocument/typeDefinition`, for gating and errors. */
export const TYPE_DEFINITION_FEATURE = { capability: "typeDefinitionProvider", method: TypeDefinitionRequest.method } as const;

/**
 * The definition of the symbol's type at an LSP position, as targets in the server's order (`Location` and
 * `LocationLink` answers alike); none is an empty list. `NotSupported` without `typeDefinitionProvider`.
 */
export async function requestTypeDefinition(client: LspClient, uri: string, position: Position, options: RequestOptions): Promise<TargetLocation[]> {
  requireCapability(client, "typeDefinitionProvider", TypeDefinitionRequest.method);
  return targetsOf(await client.request(TypeDefinitionRequest.type, { textDocument: { uri }, position }, options));
}
