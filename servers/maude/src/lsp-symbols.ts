/** Outline symbols as LSP `DocumentSymbol`s. The kind mapping is documented in docs/contributors/maude-server.md. */
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver/node";
import type { MaudeSymbol, MaudeSymbolKind } from "./outline.js";

const KIND: Readonly<Record<MaudeSymbolKind, SymbolKind>> = {
  module: SymbolKind.Module,
  view: SymbolKind.Module,
  sort: SymbolKind.Class,
  subsort: SymbolKind.Interface,
  operator: SymbolKind.Operator,
  variable: SymbolKind.Variable,
  equation: SymbolKind.Property,
  membership: SymbolKind.Property,
  rule: SymbolKind.Event,
  strategy: SymbolKind.Function,
};

/** Converts a tree of outline symbols, keeping document order. */
export function toDocumentSymbols(symbols: readonly MaudeSymbol[]): DocumentSymbol[] {
  return symbols.map((s) => ({
    name: s.name,
    kind: KIND[s.kind],
    detail: s.detail,
    range: s.range,
    selectionRange: s.selectionRange,
    children: toDocumentSymbols(s.children),
  }));
}
