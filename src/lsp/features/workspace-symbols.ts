import { WorkspaceSymbolRequest, type Location, type SymbolInformation, type SymbolKind, type WorkspaceSymbol } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";

/** One workspace symbol in a shape common to SymbolInformation and WorkspaceSymbol. */
export interface RawWorkspaceSymbol {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly containerName: string | null;
  readonly uri: string;
  /** Null when the server gave only a URI (WorkspaceSymbol without a resolved range). */
  readonly range: Location["range"] | null;
}

/** Whether the server offers workspace symbols, statically or by registration. */
export function offersWorkspaceSymbols(client: LspClient): boolean {
  return Boolean(client.capabilities.workspaceSymbolProvider) || client.registrations.has(WorkspaceSymbolRequest.method);
}

/** `NotSupported` unless the server offers workspace symbols. */
export function requireWorkspaceSymbols(client: LspClient): void {
  if (!offersWorkspaceSymbols(client)) {
    throw new BridgeError("NotSupported", "the server does not provide workspace symbols", { method: WorkspaceSymbolRequest.method });
  }
}

/** Asks for workspace symbols matching `query`. */
export async function requestWorkspaceSymbols(client: LspClient, query: string, options: RequestOptions): Promise<RawWorkspaceSymbol[]> {
  requireWorkspaceSymbols(client);
  const answer = (await client.request(WorkspaceSymbolRequest.type, { query }, options)) ?? [];
  return (answer as (SymbolInformation | WorkspaceSymbol)[]).map((symbol) => ({
    name: symbol.name,
    kind: symbol.kind,
    containerName: symbol.containerName ?? null,
    uri: symbol.location.uri,
    range: "range" in symbol.location ? symbol.location.range : null,
  }));
}
