import { compareStrings } from "./compare.js";

/** A code action as the `code_actions` tool lists it (CONTRACT §4.1); key order is declaration order. */
export interface CodeActionItem {
  title: string;
  kind: string | null;
  is_preferred: boolean;
  disabled: string | null;
  fixes: { code: string | null; message: string }[];
  has_edit: boolean;
  has_command: boolean;
}

/**
 * The canonical order of code actions: preferred first, then kind (none first), then title; then
 * the remaining fields, so the order is total and equal inputs give identical outputs.
 */
export function sortCodeActions(items: readonly CodeActionItem[]): CodeActionItem[] {
  return [...items].sort(
    (a, b) =>
      Number(b.is_preferred) - Number(a.is_preferred) ||
      compareStrings(a.kind, b.kind) ||
      compareStrings(a.title, b.title) ||
      compareStrings(a.disabled, b.disabled) ||
      Number(a.has_edit) - Number(b.has_edit) ||
      Number(a.has_command) - Number(b.has_command) ||
      compareStrings(JSON.stringify(a.fixes), JSON.stringify(b.fixes)),
  );
}
