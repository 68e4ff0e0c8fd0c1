import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { flattenSymbols, nestSymbolsByRange, sortWorkspaceSymbols, type SymbolNode, type WorkspaceSymbolItem } from "../../../src/contract/ordering.js";

const range = (l1: number, c1: number, l2: number, c2: number) => ({
  start: { line: l1, column: c1 },
  end: { line: l2, column: c2 },
});
const node = (name: string, r: ReturnType<typeof range>, children: SymbolNode[] = [], kind = "function"): SymbolNode => ({
  name,
  kind,
  detail: null,
  range: r,
  selection_range: { start: r.start, end: r.start },
  children,
});
const outline = (roots: SymbolNode[]) => flattenSymbols(roots).map((s) => `${"  ".repeat(s.depth)}${s.name}<${s.container ?? "-"}>`);

describe("flattenSymbols", () => {
  test("is pre-order with siblings in document order, then name, then kind", () => {
    const roots = [
      node("second", range(10, 1, 20, 1), [node("inner_b", range(12, 1, 13, 1)), node("inner_a", range(11, 1, 11, 9))]),
      node("first", range(1, 1, 5, 1), [
        node("z", range(2, 1, 2, 5)),
        node("a", range(2, 1, 2, 5), [], "variable"),
        node("a", range(2, 1, 2, 5), [], "class"),
        node("wide", range(2, 1, 3, 1), [node("deep", range(2, 3, 2, 4))]),
      ]),
    ];
    expect(outline(roots)).toEqual([
      "first<->",
      "  a<first>",
      "  a<first>",
      "  z<first>",
      "  wide<first>",
      "    deep<wide>",
      "second<->",
      "  inner_a<second>",
      "  inner_b<second>",
    ]);
    const flat = flattenSymbols(roots);
    expect(flat.slice(1, 3).map((s) => s.kind)).toEqual(["class", "variable"]);
    expect(flat.map((s) => s.depth)).toEqual([0, 1, 1, 1, 1, 2, 0, 1, 1]);
  });

  test("emits keys in contract order", () => {
    expect(JSON.stringify(flattenSymbols([node("f", range(1, 1, 1, 2))])[0])).toBe(
      '{"name":"f","kind":"function","detail":null,"container":null,"depth":0,"range":{"start":{"line":1,"column":1},"end":{"line":1,"column":2}},"selection_range":{"start":{"line":1,"column":1},"end":{"line":1,"column":1}}}',
    );
  });

  test("survives very deep nesting", () => {
    let tree = node("leaf", range(1, 1, 1, 1));
    for (let i = 0; i < 50_000; i++) tree = node(`n${i}`, range(1, 1, 1, 1), [tree]);
    const flat = flattenSymbols([tree]);
    expect(flat).toHaveLength(50_001);
    expect(flat.at(-1)).toMatchObject({ name: "leaf", depth: 50_000, container: "n0" });
  });

  test("does not depend on the order siblings arrive in (property)", () => {
    const leaf = fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom("a", "b", "B"), fc.constantFrom("class", "method"))
      .map(([line, len, name, kind]) => node(name, range(line, 1, line + len, 1), [], kind));
    fc.assert(
      fc.property(
        fc.array(leaf, { maxLength: 12 }).chain((xs) => fc.tuple(fc.constant(xs), fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length }))),
        ([xs, ys]) => {
          expect(JSON.stringify(flattenSymbols([node("root", range(1, 1, 9, 1), ys)]))).toBe(
            JSON.stringify(flattenSymbols([node("root", range(1, 1, 9, 1), xs)])),
          );
        },
      ),
    );
  });
});

describe("nestSymbolsByRange", () => {
  test("puts each node under the smallest node that strictly contains it", () => {
    const flat = [
      node("method", range(3, 3, 5, 3), [], "method"),
      node("Klass", range(2, 1, 10, 1), [], "class"),
      node("free", range(12, 1, 13, 1)),
      node("local", range(4, 5, 4, 9), [], "variable"),
      node("Module", range(1, 1, 20, 1), [], "module"),
      node("other", range(6, 3, 7, 3), [], "method"),
    ];
    expect(outline(nestSymbolsByRange(flat))).toEqual([
      "Module<->",
      "  Klass<Module>",
      "    method<Klass>",
      "      local<method>",
      "    other<Klass>",
      "  free<Module>",
    ]);
    expect(flat.every((n) => n.children.length === 0)).toBe(true); // input untouched
  });

  test("keeps nodes with equal ranges as siblings", () => {
    const nested = nestSymbolsByRange([node("a", range(1, 1, 2, 1)), node("b", range(1, 1, 2, 1)), node("c", range(1, 2, 1, 3))]);
    expect(nested.map((n) => n.name)).toEqual(["a", "b"]);
    expect(nested.flatMap((n) => n.children).map((n) => n.name)).toEqual(["c"]);
  });

  test("picks the innermost container when ranges only partly overlap", () => {
    const nested = nestSymbolsByRange([node("T", range(1, 1, 10, 1)), node("C", range(5, 1, 20, 1)), node("N", range(6, 1, 8, 1))]);
    expect(outline(nested)).toEqual(["T<->", "C<->", "  N<C>"]);
  });
});

describe("sortWorkspaceSymbols", () => {
  test("orders by path, start, name, kind, with a null range first", () => {
    const item = (name: string, path: string, r: ReturnType<typeof range> | null, kind = "class"): WorkspaceSymbolItem => ({
      name,
      kind,
      container: null,
      path,
      range: r,
    });
    const items = [
      item("b", "src/a.ts", range(3, 1, 3, 2)),
      item("a", "src/a.ts", range(3, 1, 3, 2), "function"),
      item("a", "src/a.ts", range(3, 1, 3, 2)),
      item("z", "src/a.ts", range(1, 5, 1, 6)),
      item("nowhere", "src/a.ts", null),
      item("first", "lib/x.ts", range(9, 1, 9, 2)),
    ];
    expect(sortWorkspaceSymbols(items).map((i) => `${i.path}:${i.name}:${i.kind}`)).toEqual([
      "lib/x.ts:first:class",
      "src/a.ts:nowhere:class",
      "src/a.ts:z:class",
      "src/a.ts:a:class",
      "src/a.ts:a:function",
      "src/a.ts:b:class",
    ]);
  });
});
