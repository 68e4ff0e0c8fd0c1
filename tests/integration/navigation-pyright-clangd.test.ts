/**
 * Navigation on pyright and clangd through the real binary: pyright's first `references` in a
 * fresh bridge is complete, and definition and references cross files on both servers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { copyFixtureWorkspace, navConfig } from "../helpers/workspace.js";

let bridge: Bridge;
let root: string;
const source = (path: string) => readFileSync(join(root, path), "utf8");
const at = (path: string, needle: string, after = "") => ({ path, ...positionOf(source(path), needle, after) });
const span = (path: string, needle: string, after = "") => {
  const start = positionOf(source(path), needle, after);
  return { start, end: { line: start.line, column: start.column + [...needle].length } };
};
const places = (result: any) => result.items.map((item: any) => `${item.path}:${item.range.start.line}:${item.range.start.column}`);
const place = (path: string, needle: string, after = "") => {
  const { line, column } = positionOf(source(path), needle, after);
  return `${path}:${line}:${column}`;
};

beforeAll(async () => {
  requireBinary("clangd");
  root = copyFixtureWorkspace("nav");
  bridge = await startBridge(writeConfig(navConfig(root, ["pyright", "clangd"])));
});
afterAll(async () => bridge?.close());

describe("pyright", () => {
  test("the first call of a fresh bridge, references on a symbol used in three files, lists all of them", async () => {
    const first = await bridge.call("references", at("py/shapes.py", "total_area"));
    expect(first.isError).toBeFalsy();
    expect(places(first.structuredContent)).toEqual([
      place("py/report.py", "total_area"),
      place("py/report.py", "total_area", "return "),
      place("py/shapes.py", "total_area"),
      place("py/summary.py", "total_area"),
      place("py/summary.py", "total_area", "🟢"),
    ]);
    const later = await bridge.call("references", at("py/shapes.py", "total_area"));
    expect(JSON.stringify(later)).toBe(JSON.stringify(first));
  }, 300_000);

  test("definition crosses files and lands on the name", async () => {
    const result = await bridge.ok("definition", at("py/summary.py", "total_area", "🟢"));
    expect(result.items).toEqual([
      {
        path: "py/shapes.py",
        in_workspace: true,
        range: span("py/shapes.py", "total_area"),
        selection_range: span("py/shapes.py", "total_area"),
        text: "def total_area(sides: list[float]) -> float:",
      },
    ]);
  });

  test("implementation is NotSupported: pyright has no implementationProvider", async () => {
    const error = await bridge.fail("implementation", at("py/report.py", "total_area", "return "));
    expect(error).toMatchObject({ code: "NotSupported", details: { capability: "implementationProvider" } });
  });

  test("declaration checks its position like every position tool", async () => {
    const past = await bridge.fail("declaration", { path: "py/report.py", line: 99, column: 1 });
    expect(past.code).toBe("InvalidArguments");
    const zero = await bridge.fail("declaration", { path: "py/report.py", line: 1, column: 0 });
    expect(zero).toMatchObject({ code: "InvalidArguments", details: { fields: ["column"] } });
  });
});

describe("clangd", () => {
  test("definition from a caller lands on the header's declaration", async () => {
    const result = await bridge.ok("definition", at("c/main.c", "vec_sum"));
    expect(result.items.map((item: any) => [item.path, item.selection_range, item.text])).toEqual([
      ["c/vec.h", span("c/vec.h", "vec_sum"), "int vec_sum(const int *values, int count);"],
    ]);
  });

  test("references cover the header and both .c files once clangd has opened them", async () => {
    // Without a background index (it would write into the workspace), clangd knows the files it
    // has opened: the answer is complete for those, so both callers are opened first.
    await bridge.ok("document_symbols", { path: "c/main.c" });
    await bridge.ok("document_symbols", { path: "c/stats.c" });
    const result = await bridge.ok("references", at("c/vec.h", "vec_sum"));
    expect(places(result)).toEqual([
      place("c/main.c", "vec_sum"),
      place("c/stats.c", "vec_sum"),
      place("c/stats.c", "vec_sum", "2 * "),
      place("c/vec.h", "vec_sum"),
    ]);
  });

  test("outgoing calls, which clangd announces but answers with MethodNotFound, are NotSupported", async () => {
    const error = await bridge.fail("call_hierarchy", { ...at("c/stats.c", "vec_sum"), direction: "outgoing" });
    expect(error).toMatchObject({ code: "NotSupported", details: { capability: "callHierarchyProvider", method: "callHierarchy/outgoingCalls" } });
  });
});
