import { compareRanges, compareStrings, copyRange } from "./compare.js";
import type { BridgeRange } from "./positions.js";

/** Longest `text` excerpt of a location item, in code points, before the trailing `…`. */
const EXCERPT_CODE_POINTS = 200;

/**
 * A location item of CONTRACT §4.1. Key order is the declaration order. `path` is relative to
 * the workspace root when `in_workspace`, else absolute; `text` is null outside the workspace.
 */
export interface LocationItem {
  path: string;
  in_workspace: boolean;
  range: BridgeRange;
  selection_range: BridgeRange;
  text: string | null;
}

/**
 * The canonical order of location items: in-workspace items first, then path, start, end (then
 * the selection range, so the order is total).
 */
function compareLocations(a: LocationItem, b: LocationItem): number {
  return (
    Number(b.in_workspace) - Number(a.in_workspace) ||
    compareStrings(a.path, b.path) ||
    compareRanges(a.range, b.range) ||
    compareRanges(a.selection_range, b.selection_range)
  );
}

/**
 * Location items sorted canonically, with duplicates (same path and range) kept once: of two
 * with the same range, the one with the smaller selection range stays. Returns fresh objects in
 * contract key order; the input is untouched.
 */
export function sortLocations(items: readonly LocationItem[]): LocationItem[] {
  const sorted = [...items].sort(compareLocations);
  const out: LocationItem[] = [];
  for (const item of sorted) {
    const last = out[out.length - 1];
    if (last && last.path === item.path && compareRanges(last.range, item.range) === 0) continue;
    out.push(copyLocation(item));
  }
  return out;
}

/** A fresh copy of a location item with keys in contract order. */
function copyLocation(item: LocationItem): LocationItem {
  return {
    path: item.path,
    in_workspace: item.in_workspace,
    range: copyRange(item.range),
    selection_range: copyRange(item.selection_range),
    text: item.text,
  };
}

/**
 * A line as a location item shows it: without trailing whitespace, cut to
 * {@link EXCERPT_CODE_POINTS} code points with a trailing `…` when longer.
 */
export function lineExcerpt(line: string): string {
  const trimmed = line.replace(/\s+$/u, "");
  let points = 0;
  for (let i = 0; i < trimmed.length; i++) {
    if (points === EXCERPT_CODE_POINTS) return trimmed.slice(0, i) + "…";
    const unit = trimmed.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = trimmed.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    points++;
  }
  return trimmed;
}

/** A caller or callee of `call_hierarchy` (CONTRACT §4.1); key order is declaration order. */
export interface CallItem extends LocationItem {
  name: string;
  kind: string;
  detail: string | null;
  call_sites: BridgeRange[];
}

/**
 * Callers or callees in canonical order: as locations, then name, kind and detail; each one's
 * `call_sites` in document order, each range once (tsserver repeats a site once per overload it
 * considered). Returns fresh objects in contract key order.
 */
export function sortCallItems(items: readonly CallItem[]): CallItem[] {
  return [...items]
    .sort((a, b) => compareLocations(a, b) || compareStrings(a.name, b.name) || compareStrings(a.kind, b.kind) || compareStrings(a.detail, b.detail))
    .map((item) => ({
      name: item.name,
      kind: item.kind,
      detail: item.detail,
      ...copyLocation(item),
      call_sites: uniqueRanges(item.call_sites),
    }));
}

/** One text edit of `rename_preview`; `text` is the line before the change (as a location item's). */
interface PreviewEdit {
  range: BridgeRange;
  new_text: string;
  text: string | null;
}

/** One file of `rename_preview`. */
export interface PreviewFile {
  path: string;
  in_workspace: boolean;
  edits: PreviewEdit[];
}

/** Files in location order (in-workspace first, then path), each file's edits by range then new text. */
export function sortPreviewFiles(files: readonly PreviewFile[]): PreviewFile[] {
  return [...files]
    .sort((a, b) => Number(b.in_workspace) - Number(a.in_workspace) || compareStrings(a.path, b.path))
    .map((file) => ({
      path: file.path,
      in_workspace: file.in_workspace,
      edits: [...file.edits]
        .sort((a, b) => compareRanges(a.range, b.range) || compareStrings(a.new_text, b.new_text))
        .map((edit) => ({ range: copyRange(edit.range), new_text: edit.new_text, text: edit.text })),
    }));
}

function uniqueRanges(ranges: readonly BridgeRange[]): BridgeRange[] {
  const sorted = [...ranges].sort(compareRanges);
  return sorted.filter((range, i) => i === 0 || compareRanges(sorted[i - 1]!, range) !== 0).map(copyRange);
}
