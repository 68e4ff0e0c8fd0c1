import { SemanticTokensRequest, type Position, type SemanticTokensLegend } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";

/** One token of `textDocument/semanticTokens/full`, decoded: where it is and what the server calls it. */
export interface SemanticToken {
  readonly start: Position;
  /** Length in the negotiated position encoding's units. */
  readonly length: number;
  /** The legend's name of its type (`class`, `variable`, `comment`, ...); "" for an index outside the legend. */
  readonly type: string;
}

/** The legend of a server that answers whole-document semantic tokens; null when it does not. */
function fullSemanticTokensLegend(client: LspClient): SemanticTokensLegend | null {
  const provider = client.capabilities.semanticTokensProvider;
  return provider?.full ? provider.legend : null;
}

/**
 * The server's semantic tokens of a whole document, decoded from LSP's relative encoding
 * (each token's line and start are deltas from the previous token's). Null when the server does
 * not offer them, or answers the request with an error: tokens only help, and a caller has
 * another way. A dead connection, the deadline or a cancellation still fail.
 */
export async function requestSemanticTokens(client: LspClient, uri: string, options: RequestOptions): Promise<SemanticToken[] | null> {
  const legend = fullSemanticTokensLegend(client);
  if (!legend) return null;
  try {
    const answer = await client.request(SemanticTokensRequest.type, { textDocument: { uri } }, options);
    return decodeSemanticTokens(answer?.data ?? [], legend);
  } catch (error) {
    if (error instanceof BridgeError && (error.code === "NotSupported" || error.details.lsp_error_code !== undefined)) return null;
    throw error;
  }
}

/** Decodes LSP's five-integers-per-token relative encoding. A trailing partial token is ignored. */
export function decodeSemanticTokens(data: readonly number[], legend: SemanticTokensLegend): SemanticToken[] {
  const tokens: SemanticToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    const deltaLine = data[i]!;
    line += deltaLine;
    character = deltaLine === 0 ? character + data[i + 1]! : data[i + 1]!;
    tokens.push({ start: { line, character }, length: data[i + 2]!, type: legend.tokenTypes[data[i + 3]!] ?? "" });
  }
  return tokens;
}
