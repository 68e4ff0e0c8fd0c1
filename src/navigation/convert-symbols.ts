import type { DocumentSymbol, SymbolInformation } from "vscode-languageserver-protocol";
import { symbolKindName } from "../contract/names.js";
import type { LineIndex, PositionEncoding } from "../contract/positions.js";
import { nestSymbolsByRange, type SymbolNode } from "../contract/symbol-order.js";
import type { DocumentSymbolAnswer } from "../lsp/features/document-symbols.js";

/** Either LSP shape of document symbols as bridge symbol trees (flat lists nested by range). */
export function convertDocumentSymbols(answer: DocumentSymbolAnswer, lines: LineIndex, encoding: PositionEncoding): SymbolNode[] {
  if (answer.kind === "hierarchical") return answer.symbols.map((symbol) => convertTree(symbol, lines, encoding));
  return nestSymbolsByRange(answer.symbols.map((symbol) => convertFlat(symbol, lines, encoding)));
}

function convertTree(symbol: DocumentSymbol, lines: LineIndex, encoding: PositionEncoding): SymbolNode {
  return {
    name: symbol.name,
    kind: symbolKindName(symbol.kind),
    detail: symbol.detail ?? null,
    range: lines.rangeFromLsp(symbol.range, encoding),
    selection_range: lines.rangeFromLsp(symbol.selectionRange, encoding),
    children: (symbol.children ?? []).map((child) => convertTree(child, lines, encoding)),
  };
}

function convertFlat(symbol: SymbolInformation, lines: LineIndex, encoding: PositionEncoding): SymbolNode {
  const range = lines.rangeFromLsp(symbol.location.range, encoding);
  return { name: symbol.name, kind: symbolKindName(symbol.kind), detail: null, range, selection_range: range, children: [] };
}
