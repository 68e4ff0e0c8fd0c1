import { describe, expect, test } from "vitest";
import { lineExcerpt, sortCallItems, sortLocations, sortPreviewFiles, type LocationItem } from "../../../src/contract/location-order.js";
import type { BridgeRange } from "../../../src/contract/positions.js";

const r = (l1: number, c1: number, l2: number, c2: number): BridgeRange => ({ start: { line: l1, column: c1 }, end: { line: l2, column: c2 } });
const item = (path: string, range: BridgeRange, in_workspace = true, selection = range): LocationItem => ({
  path,
  in_workspace,
  range,
  selection_range: selection,
  text: in_workspace ? "x" : null,
});

describe("sortLocations", () => {
  test("in-workspace first, then path, start, end", () => {
    const sorted = sortLocations([
      item("/usr/lib/x.d.ts", r(1, 1, 1, 2), false),
      item("b.ts", r(2, 1, 2, 3)),
      item("a.ts", r(5, 1, 5, 2)),
      item("b.ts", r(1, 4, 1, 5)),
      item("b.ts", r(1, 4, 1, 9)),
    ]);
    expect(sorted.map((i) => `${i.path}:${i.range.start.line}:${i.range.start.column}-${i.range.end.column}`)).toEqual([
      "a.ts:5:1-2",
      "b.ts:1:4-5",
      "b.ts:1:4-9",
      "b.ts:2:1-3",
      "/usr/lib/x.d.ts:1:1-2",
    ]);
  });

  test("an item with the same path and range appears once, whatever else differs", () => {
    const sorted = sortLocations([item("a.ts", r(1, 1, 3, 2), true, r(1, 5, 1, 9)), item("a.ts", r(1, 1, 3, 2), true, r(1, 1, 3, 2))]);
    expect(sorted).toHaveLength(1);
    expect(sorted[0]!.selection_range).toEqual(r(1, 1, 3, 2));
  });

  test("the result is the same for any input order, with keys in contract order", () => {
    const items = [item("b.ts", r(1, 1, 1, 2)), item("a.ts", r(1, 1, 1, 2)), item("/abs", r(1, 1, 1, 2), false), item("a.ts", r(1, 1, 1, 2))];
    const once = JSON.stringify(sortLocations(items));
    expect(JSON.stringify(sortLocations([...items].reverse()))).toBe(once);
    expect(Object.keys(sortLocations(items)[0]!)).toEqual(["path", "in_workspace", "range", "selection_range", "text"]);
  });
});

describe("lineExcerpt", () => {
  test("drops trailing whitespace and keeps leading indentation", () => {
    expect(lineExcerpt("  return x; \t ")).toBe("  return x;");
  });

  test("cuts at 200 code points with an ellipsis, counting an emoji as one", () => {
    const long = "🟢".repeat(150) + "a".repeat(100);
    const excerpt = lineExcerpt(long);
    expect([...excerpt]).toHaveLength(201);
    expect(excerpt.endsWith("a…")).toBe(true);
    expect(lineExcerpt("a".repeat(200))).toBe("a".repeat(200));
  });
});

describe("sortCallItems", () => {
  test("orders callers as locations, then name, and their call sites once each in document order", () => {
    const call = (name: string, path: string, sites: BridgeRange[]) => ({
      name,
      kind: "function",
      detail: null,
      ...item(path, r(1, 1, 1, 5)),
      call_sites: sites,
    });
    const sorted = sortCallItems([call("b", "x.ts", [r(3, 1, 3, 2), r(2, 1, 2, 2), r(3, 1, 3, 2)]), call("a", "x.ts", [])]);
    expect(sorted.map((c) => c.name)).toEqual(["a", "b"]);
    expect(sorted[1]!.call_sites).toEqual([r(2, 1, 2, 2), r(3, 1, 3, 2)]);
  });
});

describe("sortPreviewFiles", () => {
  test("files as locations, edits by range", () => {
    const sorted = sortPreviewFiles([
      { path: "/abs/x.ts", in_workspace: false, edits: [] },
      {
        path: "b.ts",
        in_workspace: true,
        edits: [
          { range: r(4, 1, 4, 2), new_text: "n", text: "l4" },
          { range: r(1, 1, 1, 2), new_text: "n", text: "l1" },
        ],
      },
      { path: "a.ts", in_workspace: true, edits: [] },
    ]);
    expect(sorted.map((f) => f.path)).toEqual(["a.ts", "b.ts", "/abs/x.ts"]);
    expect(sorted[1]!.edits.map((e) => e.text)).toEqual(["l1", "l4"]);
  });
});
