import { pathToFileURL } from "node:url";
import { DocumentSymbolRequest, HoverRequest, SymbolKind, type DocumentSymbol } from "vscode-languageserver-protocol";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { renderHoverContents } from "../../lsp/features/hover.js";

/** Top-level kinds that are values: unexported, nothing another file sees depends on them by name. */
const VALUE_KINDS: ReadonlySet<SymbolKind> = new Set([SymbolKind.Variable, SymbolKind.Constant, SymbolKind.Function]);

/**
 * What other files can see of a module, as text to compare before a change and after it (in the
 * spirit of the compiler's own rule: a module whose declarations did not change does not change
 * its importers' diagnostics): the hover of every top-level declaration and, nested, of every
 * member, except top-level values that are not exported (`exportedNames` are the names the
 * module exports, read from its text). A type is kept exported or not, since an exported
 * signature may name it. Null when it cannot be told: no symbols as a hierarchy, an overloaded
 * or shortened hover.
 */
export async function requestDeclarationShape(
  link: Pick<ServerLink, "request">,
  file: string,
  exportedNames: ReadonlySet<string>,
  options: RequestOptions,
): Promise<string | null> {
  const uri = pathToFileURL(file).href;
  const symbols = (await link.request(DocumentSymbolRequest.type, { textDocument: { uri } }, options)) ?? [];
  if (symbols.some((symbol) => !("selectionRange" in symbol))) return null;
  // Every declaration in the shape's order; their hovers are asked all at once (one round trip's
  // wait, not one per declaration).
  const declarations: { depth: number; item: DocumentSymbol }[] = [];
  const visit = (items: readonly DocumentSymbol[], depth: number): void => {
    for (const item of items) {
      if (depth === 0 && VALUE_KINDS.has(item.kind) && !exportedNames.has(item.name)) continue;
      declarations.push({ depth, item });
      visit(item.children ?? [], depth + 1);
    }
  };
  visit(symbols as DocumentSymbol[], 0);
  const hovers = await Promise.all(
    declarations.map(({ item }) => link.request(HoverRequest.type, { textDocument: { uri }, position: item.selectionRange.start }, options)),
  );
  const shape: unknown[] = [];
  for (const [index, { depth, item }] of declarations.entries()) {
    const hover = hovers[index];
    const shown = hover ? renderHoverContents(hover.contents) : "";
    if (/\(\+\d+ overloads?\)|\.\.\. \d+ more \.\.\./.test(shown)) return null;
    shape.push([depth, item.kind, item.name, shown]);
  }
  return JSON.stringify(shape);
}
