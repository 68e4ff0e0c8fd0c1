import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, positionOf, startBridge, writeConfig } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { copyFixtureWorkspace, polyConfig } from "../helpers/workspace.js";

let bridge: Bridge;
let root: string;
const source = (path: string) => readFileSync(join(root, path), "utf8");

beforeAll(async () => {
  requireBinary("clangd");
  root = copyFixtureWorkspace("poly");
  bridge = await startBridge(writeConfig(polyConfig(root)));
});
afterAll(async () => bridge?.close());

describe("diagnostics from real, pinned servers", () => {
  test("TypeScript's server reports the type error at its line and column", async () => {
    const result = await bridge.ok("diagnostics", { path: "src/shapes.ts" });
    const at = positionOf(source("src/shapes.ts"), "broken");
    const errors = result.items.filter((item: any) => item.severity === "error");
    expect(errors).toEqual([
      {
        path: "src/shapes.ts",
        range: { start: at, end: { line: at.line, column: at.column + "broken".length } },
        severity: "error",
        code: "2322",
        source: "ts",
        message: "Type 'string' is not assignable to type 'number'.",
        channels: ["pull"],
      },
    ]);
    expect(result.total).toBe(result.items.length);
  });

  test("pyright reports the assignment error", async () => {
    const result = await bridge.ok("diagnostics", { path: "src/inventory.py" });
    const at = positionOf(source("src/inventory.py"), "total([])");
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      path: "src/inventory.py",
      range: { start: at, end: { line: at.line, column: at.column + "total([])".length } },
      severity: "error",
      code: "reportAssignmentType",
      source: "Pyright",
    });
    expect(result.items[0].message).toContain('"int" is not assignable to declared type "str"');
  });

  test("clangd reports the incompatible initialisation", async () => {
    const result = await bridge.ok("diagnostics", { path: "src/matrix.c" });
    const at = positionOf(source("src/matrix.c"), "bad = m");
    expect(result.items).toEqual([
      {
        path: "src/matrix.c",
        range: { start: at, end: { line: at.line, column: at.column + "bad".length } },
        severity: "error",
        code: "typecheck_convert_incompatible",
        source: "clang",
        message: "Initializing 'int' with an expression of incompatible type 'struct matrix'",
        channels: ["push"],
      },
    ]);
  });

  test("paths[] merges files in canonical order and min_severity filters", async () => {
    const result = await bridge.ok("diagnostics", { paths: ["src/shapes.ts", "src/matrix.c"], min_severity: "error" });
    expect(result.items.map((item: any) => item.path)).toEqual(["src/matrix.c", "src/shapes.ts"]);
  });

  test("two identical calls give byte-identical results", async () => {
    const first = await bridge.call("diagnostics", { paths: ["src/shapes.ts", "src/inventory.py", "src/matrix.c"] });
    const second = await bridge.call("diagnostics", { paths: ["src/shapes.ts", "src/inventory.py", "src/matrix.c"] });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });
});

describe("hover", () => {
  test("an identifier after an emoji is found at its 1-based code-point column", async () => {
    const text = source("src/shapes.ts");
    const at = positionOf(text, "total", "🟢");
    const result = await bridge.ok("hover", { path: "src/shapes.ts", line: at.line, column: at.column + 2 });
    expect(result.contents).toContain("const total: number");
    expect(result.range).toEqual({ start: at, end: { line: at.line, column: at.column + "total".length } });
  });

  test("pyright and clangd hover name the type", async () => {
    const py = positionOf(source("src/inventory.py"), "total(items");
    const pyHover = await bridge.ok("hover", { path: "src/inventory.py", ...py });
    expect(pyHover.contents).toContain("def total(items: list[Item]) -> int");
    const c = positionOf(source("src/matrix.c"), "cells(&m)");
    const cHover = await bridge.ok("hover", { path: "src/matrix.c", ...c });
    expect(cHover.contents).toContain("cells");
    expect(cHover.contents).toContain("size_t");
  });
});

describe("symbols", () => {
  test("document symbols come back pre-order with depth and container", async () => {
    const result = await bridge.ok("document_symbols", { path: "src/shapes.ts" });
    const outline = result.items.map((s: any) => `${s.depth} ${s.kind} ${s.name} <${s.container ?? ""}>`);
    expect(outline).toEqual([
      "0 interface Shape <>",
      "1 property name <Shape>",
      "1 method area <Shape>",
      "0 class Circle <>",
      "1 property name <Circle>",
      "1 constructor constructor <Circle>",
      "1 property radius <Circle>",
      "1 method area <Circle>",
      "0 function describe <>",
      "1 variable label <describe>",
      "1 variable total <describe>",
      "0 variable broken <>",
    ]);
    const circle = result.items.find((s: any) => s.name === "Circle");
    expect(circle.range.start).toEqual(positionOf(source("src/shapes.ts"), "export class Circle"));
  });

  test("paging keeps the canonical order", async () => {
    const all = await bridge.ok("document_symbols", { path: "src/shapes.ts" });
    const page = await bridge.ok("document_symbols", { path: "src/shapes.ts", offset: 3, limit: 2 });
    expect(page).toEqual({ items: all.items.slice(3, 5), total: all.total, returned: 2, offset: 3 });
  });

  test("workspace symbols are ordered by path, start, name, kind", async () => {
    await bridge.ok("diagnostics", { paths: ["src/shapes.ts", "src/inventory.py", "src/matrix.c"] });
    const circle = await bridge.ok("workspace_symbols", { server: "typescript", query: "Circle" });
    expect(circle.items.find((s: any) => s.name === "Circle")).toMatchObject({ kind: "class", path: "src/shapes.ts" });
    // Every server is asked: an order to check, over several paths, with items of one path whose
    // names are not in line order (so that ordering by name before start would show).
    const result = await bridge.ok("workspace_symbols", { query: "t" });
    type Key = [path: string, line: number, column: number, name: string, kind: string];
    const keys: Key[] = result.items.map((s: any) => [s.path, s.range?.start.line ?? 0, s.range?.start.column ?? 0, s.name, s.kind]);
    const paths = [...new Set(keys.map((key) => key[0]))];
    expect(paths.length).toBeGreaterThanOrEqual(3);
    expect(keys.length).toBeGreaterThanOrEqual(8);
    const inLineOrder = (path: string): string[] =>
      keys
        .filter((key) => key[0] === path)
        .sort((a, b) => a[1] - b[1] || a[2] - b[2])
        .map((key) => key[3]);
    expect(paths.some((path) => inLineOrder(path).join("\n") !== [...inLineOrder(path)].sort().join("\n"))).toBe(true);
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = [...keys].sort((a, b) => text(a[0], b[0]) || a[1] - b[1] || a[2] - b[2] || text(a[3], b[3]) || text(a[4], b[4]));
    expect(keys).toEqual(sorted);
  });

  test("clangd document symbols", async () => {
    const result = await bridge.ok("document_symbols", { path: "src/matrix.c" });
    expect(result.items.map((s: any) => `${s.depth} ${s.kind} ${s.name}`)).toEqual([
      "0 struct matrix",
      "1 field rows",
      "1 field cols",
      "0 function cells",
      "0 function main",
    ]);
  });
});
