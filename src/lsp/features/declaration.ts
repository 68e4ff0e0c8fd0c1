import { DeclarationRequest, type Position } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";
import { targetsOf, type TargetLocation } from "./location-answer.js";

/** Capability and method of `textDocument/declaration`, for gating and errors. */
export const DECLARATION_FEATURE = { capability: "declarationProvider", method: DeclarationRequest.method } as const;

/**
 * The declaration of the symbol at an LSP position, as targets in the server's order (`Location` and
 * `LocationLink` answers alike); none is an empty list. `NotSupported` without `declarationProvider`.
 */
export async function requestDeclaration(client: LspClient, uri: string, position: Position, options: RequestOptions): Promise<TargetLocation[]> {
  requireCapability(client, "declarationProvider", DeclarationRequest.method);
  return targetsOf(await client.request(DeclarationRequest.type, { textDocument: { uri }, position }, options));
}
