import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";

/** The two shapes LSP allows: a hierarchy, or a flat list (which callers nest by range). */
export type DocumentSymbolAnswer =
  | { readonly kind: "hierarchical"; readonly symbols: readonly DocumentSymbol[] }
  | { readonly kind: "flat"; readonly symbols: readonly SymbolInformation[] };

/** Asks for the symbols of one document. */
export async function requestDocumentSymbols(client: LspClient, uri: string, options: RequestOptions): Promise<DocumentSymbolAnswer> {
  if (!client.capabilities.documentSymbolProvider && !client.registrations.has(DocumentSymbolRequest.method)) {
    throw new BridgeError("NotSupported", "the server does not provide document symbols", { method: DocumentSymbolRequest.method });
  }
  const answer = await client.request(DocumentSymbolRequest.type, { textDocument: { uri } }, options);
  const symbols = answer ?? [];
  // LSP forbids mixing the shapes, so the first element tells which one this is.
  const first = symbols[0];
  if (first && "location" in first) return { kind: "flat", symbols: symbols as SymbolInformation[] };
  return { kind: "hierarchical", symbols: symbols as DocumentSymbol[] };
}
