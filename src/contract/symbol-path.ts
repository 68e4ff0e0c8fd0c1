import { BridgeError } from "./errors.js";
import type { BridgeRange } from "./positions.js";
import type { FlatSymbol } from "./symbol-order.js";

/** Most candidates an ambiguous or unmatched `symbol` lists in `details.candidates`. */
export const MAX_SYMBOL_CANDIDATES = 20;

/** A candidate of `details.candidates` (CONTRACT §4.1); key order is declaration order. */
interface SymbolCandidate {
  name_path: string;
  kind: string;
  range: BridgeRange;
}

/** A document symbol with the dotted path of names from its outermost container. */
interface PathedSymbol extends FlatSymbol {
  readonly name_path: string;
}

/** Adds each symbol's name path to a pre-order list from `flattenSymbols` (order kept). */
export function withNamePaths(symbols: readonly FlatSymbol[]): PathedSymbol[] {
  const stack: string[] = [];
  return symbols.map((symbol) => {
    stack.length = symbol.depth;
    stack.push(symbol.name);
    return { ...symbol, name_path: stack.join(".") };
  });
}

/** The symbols whose name path is `query` or ends with `.` + `query`, in the given order. */
export function symbolsNamed(symbols: readonly PathedSymbol[], query: string): PathedSymbol[] {
  return symbols.filter((symbol) => symbol.name_path === query || symbol.name_path.endsWith(`.${query}`));
}

/**
 * The one symbol that `query` names: a symbol matches when its name path is `query`, or ends with
 * `.` + `query` (so `area` matches `Widget.area`, and `Widget.area` matches `geo.Widget.area`).
 * With `line`, of several matches those whose name starts on that line are kept, else those whose
 * range holds it. No match, or several, throws `InvalidArguments` with `details.candidates`
 * (the matches, or else every symbol of the file; at most {@link MAX_SYMBOL_CANDIDATES}, in
 * document order).
 */
export function findSymbolByPath(symbols: readonly PathedSymbol[], query: string, line?: number): PathedSymbol {
  const matches = symbolsNamed(symbols, query);
  let chosen = matches;
  if (line !== undefined && matches.length > 1) {
    const named = matches.filter((symbol) => symbol.selection_range.start.line === line);
    chosen = named.length > 0 ? named : matches.filter((symbol) => symbol.range.start.line <= line && line <= symbol.range.end.line);
  }
  if (chosen.length === 1) return chosen[0]!;
  const where = line === undefined ? "" : ` on line ${line}`;
  if (matches.length === 0) {
    const uses = query.includes(".") ? "" : ", and its code uses no such name";
    throw new BridgeError("InvalidArguments", `no symbol named "${query}" is declared in this file${uses}`, {
      fields: ["symbol"],
      symbol: query,
      candidates: candidatesOf(symbols),
    });
  }
  const why = chosen.length === 0 ? `none of the ${matches.length} symbols named "${query}" is${where}` : `"${query}" names ${chosen.length} symbols${where}`;
  throw new BridgeError("InvalidArguments", `${why}: choose one with \`line\` or a longer name path`, {
    fields: ["symbol"],
    symbol: query,
    candidates: candidatesOf(chosen.length > 0 ? chosen : matches),
  });
}

function candidatesOf(symbols: readonly PathedSymbol[]): SymbolCandidate[] {
  return symbols.slice(0, MAX_SYMBOL_CANDIDATES).map((symbol) => ({
    name_path: symbol.name_path,
    kind: symbol.kind,
    range: { start: { ...symbol.range.start }, end: { ...symbol.range.end } },
  }));
}
