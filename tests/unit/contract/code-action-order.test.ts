import { describe, expect, test } from "vitest";
import { sortCodeActions, type CodeActionItem } from "../../../src/contract/code-action-order.js";

const action = (title: string, kind: string | null, is_preferred = false): CodeActionItem => ({
  title,
  kind,
  is_preferred,
  disabled: null,
  fixes: [],
  has_edit: true,
  has_command: false,
});

describe("sortCodeActions", () => {
  test("preferred first, then kind (none first), then title", () => {
    const sorted = sortCodeActions([
      action("Zeta", "refactor"),
      action("Beta", "quickfix"),
      action("Alpha", "quickfix"),
      action("Fix all", "source.fixAll", true),
      action("Bare command", null),
    ]);
    expect(sorted.map((a) => a.title)).toEqual(["Fix all", "Bare command", "Alpha", "Beta", "Zeta"]);
  });

  test("is total: any input order gives the same bytes", () => {
    const items = [action("A", "quickfix"), { ...action("A", "quickfix"), has_edit: false }, { ...action("A", "quickfix"), disabled: "no" }];
    expect(JSON.stringify(sortCodeActions([...items].reverse()))).toBe(JSON.stringify(sortCodeActions(items)));
  });
});
