import type { BridgePosition, BridgeRange } from "./positions.js";

/**
 * Compares two strings by UTF-16 code units, never by locale, so the order is the same on every
 * machine. null sorts before any string.
 */
export function compareStrings(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** Document order of two positions: line, then column. */
export function comparePositions(a: BridgePosition, b: BridgePosition): number {
  return a.line - b.line || a.column - b.column;
}

/** Document order of two ranges: start, then end. */
export function compareRanges(a: BridgeRange, b: BridgeRange): number {
  return comparePositions(a.start, b.start) || comparePositions(a.end, b.end);
}

/** A fresh copy of a range with keys in contract order, whatever the input's key order was. */
export function copyRange(r: BridgeRange): BridgeRange {
  return {
    start: { line: r.start.line, column: r.start.column },
    end: { line: r.end.line, column: r.end.column },
  };
}
