import { comparePositions, compareRanges, compareStrings, copyRange } from "./compare.js";
import type { BridgeRange } from "./positions.js";

/** A document symbol as a tree, before flattening. `kind` is a name from `symbolKindName`. */
export interface SymbolNode {
  name: string;
  kind: string;
  detail: string | null;
  range: BridgeRange;
  selection_range: BridgeRange;
  children: SymbolNode[];
}

/**
 * A document symbol as the `document_symbols` tool shows it (CONTRACT §4). Key order is exactly
 * the declaration order. `container` is the parent's name, null at depth 0.
 */
export interface FlatSymbol {
  name: string;
  kind: string;
  detail: string | null;
  container: string | null;
  depth: number;
  range: BridgeRange;
  selection_range: BridgeRange;
}

/**
 * Flattens symbol trees in canonical order (CONTRACT §5): pre-order, each node followed by its
 * descendants, siblings sorted by document order (start, then end), then name, then kind (then
 * detail, so the order is total). Returns fresh objects in contract key order; input is untouched.
 */
export function flattenSymbols(roots: readonly SymbolNode[]): FlatSymbol[] {
  const out: FlatSymbol[] = [];
  // An explicit stack, so a deeply nested answer cannot overflow the call stack.
  const stack: { node: SymbolNode; depth: number; container: string | null }[] = [];
  const pushSiblings = (nodes: readonly SymbolNode[], depth: number, container: string | null): void => {
    const sorted = [...nodes].sort(compareSymbolNodes);
    for (let i = sorted.length - 1; i >= 0; i--) stack.push({ node: sorted[i]!, depth, container });
  };
  pushSiblings(roots, 0, null);
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, depth, container } = top;
    out.push({
      name: node.name,
      kind: node.kind,
      detail: node.detail,
      container,
      depth,
      range: copyRange(node.range),
      selection_range: copyRange(node.selection_range),
    });
    pushSiblings(node.children, depth + 1, node.name);
  }
  return out;
}

/**
 * Nests a flat list of symbols (an LSP `SymbolInformation[]` answer) by range containment: a node
 * goes under the smallest node whose range strictly contains its own (contains it and is not
 * equal to it); nodes with equal ranges are siblings. Of several containers that only partly
 * overlap each other, the one starting last (then ending first) counts as smallest. Children a
 * node already had are kept. Returns fresh nodes; the input is untouched.
 */
export function nestSymbolsByRange(nodes: readonly SymbolNode[]): SymbolNode[] {
  // Outer ranges first: start ascending, end descending, so every container precedes its content.
  const sorted = nodes
    .map((n) => ({ ...n, children: [...n.children] }))
    .sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(b.range.end, a.range.end) || compareSymbolNodes(a, b));
  const roots: SymbolNode[] = [];
  let open: SymbolNode[] = [];
  for (const node of sorted) {
    // A node that ends before this one starts can contain neither it nor anything after it.
    open = open.filter((o) => comparePositions(o.range.end, node.range.start) >= 0);
    // `open` is in sort order, so the last container found starts last (then ends first): for
    // properly nested ranges, that is the innermost one.
    let parent: SymbolNode | undefined;
    for (const o of open) if (strictlyContains(o.range, node.range)) parent = o;
    (parent ? parent.children : roots).push(node);
    open.push(node);
  }
  return roots;
}

/** A workspace symbol as the `workspace_symbols` tool shows it; key order is declaration order. */
export interface WorkspaceSymbolItem {
  name: string;
  kind: string;
  container: string | null;
  path: string;
  range: BridgeRange | null;
}

/**
 * A sorted copy in canonical order (CONTRACT §5): path, start (a null range first), name, kind;
 * then end and container so the order is total. Items are returned as given (not copied).
 */
export function sortWorkspaceSymbols(items: readonly WorkspaceSymbolItem[]): WorkspaceSymbolItem[] {
  return [...items].sort(
    (a, b) =>
      compareStrings(a.path, b.path) ||
      compareNullable(a.range, b.range, (x, y) => comparePositions(x.start, y.start)) ||
      compareStrings(a.name, b.name) ||
      compareStrings(a.kind, b.kind) ||
      compareNullable(a.range, b.range, (x, y) => comparePositions(x.end, y.end)) ||
      compareStrings(a.container, b.container),
  );
}

function compareSymbolNodes(a: SymbolNode, b: SymbolNode): number {
  return compareRanges(a.range, b.range) || compareStrings(a.name, b.name) || compareStrings(a.kind, b.kind) || compareStrings(a.detail, b.detail);
}

function strictlyContains(outer: BridgeRange, inner: BridgeRange): boolean {
  return isInside(inner, outer) && compareRanges(outer, inner) !== 0;
}

// Whether `inner` lies within `outer` (equal ranges included).
function isInside(inner: BridgeRange, outer: BridgeRange): boolean {
  return comparePositions(outer.start, inner.start) <= 0 && comparePositions(inner.end, outer.end) <= 0;
}

function compareNullable<T>(a: T | null, b: T | null, compare: (x: T, y: T) => number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return compare(a, b);
}
