import type { Position } from "vscode-languageserver-protocol";
import { BridgeError } from "../contract/errors.js";
import { lineExcerpt } from "../contract/location-order.js";
import type { BridgePosition } from "../contract/positions.js";
import { flattenSymbols } from "../contract/symbol-order.js";
import { findSymbolByPath, MAX_SYMBOL_CANDIDATES, symbolsNamed, withNamePaths } from "../contract/symbol-path.js";
import type { RequestOptions } from "../lsp/lsp-client.js";
import { requestOpenDocumentSymbols } from "../lsp/features/document-symbols.js";
import { convertDocumentSymbols } from "./convert-symbols.js";
import type { OpenTarget } from "../targets/open-target.js";
import { findUses } from "./find-uses.js";

/** A position as tools take it (CONTRACT §4.1): `line` + `column`, or `symbol` (with `line` to choose). */
export interface PositionArgs {
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  readonly symbol?: string | undefined;
}

/** The position a call asks about, in both coordinate systems. */
export interface ResolvedPosition {
  readonly at: BridgePosition;
  readonly lsp: Position;
}

/**
 * Turns `line` + `column`, or `symbol`, into a position of the synced text. A symbol is looked
 * up in the file's document symbols and stands for the start of its name (`selection_range`);
 * a single name that no document symbol has stands for its first use in the file's code when all
 * its uses name the same thing (`findUses`). A position outside the document, an unknown or
 * ambiguous symbol, or `symbol` with `column` is `InvalidArguments`.
 */
export async function resolvePosition(target: OpenTarget, args: PositionArgs, options: RequestOptions): Promise<ResolvedPosition> {
  const { client, synced } = target;
  const encoding = client.positionEncoding;
  if (args.symbol !== undefined) {
    if (args.column !== undefined) throw bothGiven();
    if (args.symbol === "") throw new BridgeError("InvalidArguments", "`symbol` is empty: give a name", { fields: ["symbol"] });
    const answer = await requestOpenDocumentSymbols(client, synced.document, options);
    const symbols = withNamePaths(flattenSymbols(convertDocumentSymbols(answer, synced.lines, encoding)));
    if (symbolsNamed(symbols, args.symbol).length === 0 && !args.symbol.includes(".")) {
      const things = await findUses(target, args.symbol, args.line, options);
      if (things.length === 1) return things[0]!;
      if (things.length > 1) throw severalThings(target, args.symbol, args.line, things);
    }
    const found = findSymbolByPath(symbols, args.symbol, args.line);
    const at = { ...found.selection_range.start };
    return { at, lsp: synced.lines.toLsp(at, encoding) };
  }
  if (args.line === undefined || args.column === undefined) {
    throw new BridgeError("InvalidArguments", "give `line` and `column`, or `symbol`", {
      fields: [args.line === undefined ? "line" : "column"],
    });
  }
  const at = { line: args.line, column: args.column };
  return { at, lsp: synced.lines.toLsp(at, encoding) };
}

function bothGiven(): BridgeError {
  return new BridgeError("InvalidArguments", "give either `symbol` or `line` + `column`, not both (`line` may only choose among symbols)", {
    fields: ["symbol", "column"],
  });
}

/** The first use of each thing a name names, as candidates `{line, column, text}` (CONTRACT §4.1). */
function severalThings(target: OpenTarget, name: string, line: number | undefined, things: readonly ResolvedPosition[]): BridgeError {
  const where = line === undefined ? "" : ` on line ${line}`;
  const hint = line === undefined ? "choose one with `line`, or give a candidate's `line` + `column`" : "give a candidate's `line` + `column`";
  return new BridgeError("InvalidArguments", `"${name}" names ${things.length} different things${where}: ${hint}`, {
    fields: ["symbol"],
    symbol: name,
    candidates: things.slice(0, MAX_SYMBOL_CANDIDATES).map(({ at }) => ({
      line: at.line,
      column: at.column,
      text: lineExcerpt(target.synced.lines.lineText(at.line)),
    })),
  });
}
