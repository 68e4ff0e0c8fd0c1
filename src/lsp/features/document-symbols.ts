import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { OpenDocument } from "../document-sync.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { awaitNavigationReady, isNavigationReady } from "./navigation-readiness.js";

/** The two shapes LSP allows: a hierarchy, or a flat list (which callers nest by range). */
export type DocumentSymbolAnswer =
  | { readonly kind: "hierarchical"; readonly symbols: readonly DocumentSymbol[] }
  | { readonly kind: "flat"; readonly symbols: readonly SymbolInformation[] };

/** Asks for the symbols of one document. */
async function requestDocumentSymbols(client: LspClient, uri: string, options: RequestOptions): Promise<DocumentSymbolAnswer> {
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

/**
 * The symbols of an open document, never an early empty outline: a server that has not taken the
 * opened document in yet may answer [] (bash-language-server before it has analysed the file,
 * graphql-language-service before it has loaded its config). An empty answer before the document
 * is known ready is asked again once it is (`awaitNavigationReady`); a non-empty one, or any answer
 * once ready, is the server's word.
 */
export async function requestOpenDocumentSymbols(client: LspClient, document: OpenDocument, options: RequestOptions): Promise<DocumentSymbolAnswer> {
  const answer = await requestDocumentSymbols(client, document.uri, options);
  if (answer.symbols.length > 0 || isNavigationReady(document)) return answer;
  await awaitNavigationReady(client, document, options);
  return requestDocumentSymbols(client, document.uri, options);
}
