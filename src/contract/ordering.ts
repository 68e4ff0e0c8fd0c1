/**
 * The canonical order of CONTRACT §5 in one import: diagnostics (sorted and merged across the pull
 * and push channels), document symbols (flattened pre-order, or nested by range first) and
 * workspace symbols. Everything here is pure and deterministic: strings compare by code units,
 * never by locale, and every comparator is total, so equal inputs give byte-identical outputs.
 */
export {
  compareDiagnostics,
  mergeDiagnostics,
  mergeServerDiagnostics,
  sortDiagnostics,
  type BridgeDiagnostic,
  type ChannelDiagnostic,
  type DiagnosticChannel,
} from "./diagnostic-order.js";
export {
  flattenSymbols,
  nestSymbolsByRange,
  sortWorkspaceSymbols,
  type FlatSymbol,
  type SymbolNode,
  type WorkspaceSymbolItem,
} from "./symbol-order.js";
export { compareStrings, comparePositions, compareRanges, copyRange } from "./compare.js";
export type { SeverityName } from "./names.js";
