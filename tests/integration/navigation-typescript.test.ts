/**
 * The read class of CONTRACT §4.1 on the TypeScript server (TypeScript 7's native one), through the real binary and the
 * SDK client: a fresh bridge whose very first call is `references`, then every tool on the
 * navigation fixture (a function defined in geometry.ts and called from report.ts and summary.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { copyFixtureWorkspace, navConfig, snapshotFiles } from "../helpers/workspace.js";

let bridge: Bridge;
let root: string;
const source = (path: string) => readFileSync(join(root, path), "utf8");
const at = (path: string, needle: string, after = "") => ({ path, ...positionOf(source(path), needle, after) });
const span = (path: string, needle: string, after = "") => {
  const start = positionOf(source(path), needle, after);
  return { start, end: { line: start.line, column: start.column + [...needle].length } };
};

// 500 uses of one constant, for paging and the byte bound.
const MANY = 500;

beforeAll(async () => {
  root = copyFixtureWorkspace("nav");
  const uses = Array.from({ length: MANY }, (_, i) => `export const use${i} = unit + ${i};`).join("\n");
  writeFileSync(join(root, "ts/many.ts"), `export const unit = 1;\n${uses}\n`);
  bridge = await startBridge(writeConfig(navConfig(root, ["typescript"])));
});
afterAll(async () => bridge?.close());

const totalAreaUses = () => [
  `ts/geometry.ts:${span("ts/geometry.ts", "totalArea").start.line}`,
  `ts/report.ts:${span("ts/report.ts", "totalArea").start.line}`,
  `ts/report.ts:${span("ts/report.ts", "totalArea", "return ").start.line}`,
  `ts/summary.ts:${span("ts/summary.ts", "totalArea").start.line}`,
  `ts/summary.ts:${span("ts/summary.ts", "totalArea", "return ").start.line}`,
];
const lines = (result: any) => result.items.map((item: any) => `${item.path}:${item.range.start.line}`);

describe("the first call of a fresh bridge", () => {
  test("references on a symbol used in three files lists all of them, the same as a later call", async () => {
    const first = await bridge.call("references", at("ts/geometry.ts", "totalArea"));
    expect(first.isError).toBeFalsy();
    expect(lines(first.structuredContent)).toEqual(totalAreaUses());
    const later = await bridge.call("references", at("ts/geometry.ts", "totalArea"));
    expect(JSON.stringify(later)).toBe(JSON.stringify(first));
  }, 300_000);
});

describe("definition and references", () => {
  test("definition from each call site lands on the declaration's name at its code-point column", async () => {
    const name = span("ts/geometry.ts", "totalArea", "📐 */ function ");
    for (const call of [at("ts/report.ts", "totalArea", "return "), at("ts/summary.ts", "totalArea", "🟢")]) {
      const result = await bridge.ok("definition", call);
      expect(result.items).toEqual([
        {
          path: "ts/geometry.ts",
          in_workspace: true,
          range: { start: { line: name.start.line, column: 1 }, end: { line: name.start.line + 2, column: 2 } },
          selection_range: name,
          text: "export /* 📐 */ function totalArea(shapes: Shape[]): number {",
        },
      ]);
    }
  });

  test("references without the declaration leave the declarations out: the function's, and the imports that declare its name", async () => {
    const result = await bridge.ok("references", { ...at("ts/geometry.ts", "totalArea"), include_declaration: false });
    // TypeScript 7 counts an import specifier as a declaration of the name it imports.
    expect(lines(result)).toEqual([totalAreaUses()[2], totalAreaUses()[4]]);
    const summaryCall = result.items.find((item: any) => item.text?.includes("🟢"));
    expect(summaryCall.range).toEqual(span("ts/summary.ts", "totalArea", "🟢"));
  });

  test("implementation of an interface lists both implementing classes", async () => {
    const result = await bridge.ok("implementation", at("ts/geometry.ts", "Shape"));
    expect(result.items.map((item: any) => item.text)).toEqual(["export class Circle implements Shape {", "export class Square implements Shape {"]);
  });

  test("type_definition of a variable lands on its type alias", async () => {
    const result = await bridge.ok("type_definition", at("ts/report.ts", "origin"));
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({ path: "ts/geometry.ts", text: "export type Point = { x: number; y: number };" });
  });

  test("definitions of built-ins lie outside the workspace, with an absolute path and no text", async () => {
    for (const call of [at("ts/report.ts", "Promise.resolve"), at("ts/geometry.ts", "map(")]) {
      const result = await bridge.ok("definition", call);
      expect(result.items.length).toBeGreaterThan(0);
      for (const item of result.items) {
        expect(item).toMatchObject({ in_workspace: false, text: null });
        // The library files of the compiler that answers (TypeScript 7: its native package's).
        expect(item.path).toMatch(/^\/.*\/typescript[\w-]*\/lib\/lib\.[\w.]+\.d\.ts$/);
      }
    }
  });

  test("declaration is NotSupported: TypeScript 7's server has no declarationProvider", async () => {
    const error = await bridge.fail("declaration", at("ts/report.ts", "totalArea", "return "));
    expect(error).toMatchObject({ code: "NotSupported", details: { capability: "declarationProvider" } });
  });
});

describe("call hierarchy", () => {
  test("incoming lists both callers with their call sites", async () => {
    const result = await bridge.ok("call_hierarchy", { ...at("ts/geometry.ts", "totalArea"), direction: "incoming" });
    expect(result.symbol).toMatchObject({ name: "totalArea", kind: "function", path: "ts/geometry.ts" });
    expect(result.items.map((item: any) => [item.name, item.path, item.call_sites])).toEqual([
      ["report", "ts/report.ts", [span("ts/report.ts", "totalArea", "return ")]],
      ["summary", "ts/summary.ts", [span("ts/summary.ts", "totalArea", "🟢")]],
    ]);
  });

  test("outgoing lists the callees, with call sites in the symbol's own file", async () => {
    const result = await bridge.ok("call_hierarchy", { ...at("ts/geometry.ts", "totalArea"), direction: "outgoing" });
    expect(result.items.map((item: any) => `${item.name} ${item.in_workspace}`)).toEqual(["area true", "map false", "reduce false"]);
    const area = result.items[0];
    expect(area.call_sites).toEqual([
      {
        start: positionOf(source("ts/geometry.ts"), "shape.area()"),
        end: {
          ...positionOf(source("ts/geometry.ts"), "shape.area()"),
          column: positionOf(source("ts/geometry.ts"), "shape.area()").column + "shape.area".length,
        },
      },
    ]);
  });
});

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const entry of value) keysOf(entry, out);
  else if (value && typeof value === "object") {
    for (const [key, entry] of Object.entries(value)) {
      out.add(key);
      keysOf(entry, out);
    }
  }
  return out;
}

describe("code actions, listed only", () => {
  test("a name used without its import lists the server's quick fix with an edit, and no payload", async () => {
    for (const [point, title] of [[at("ts/broken.ts", "Square"), 'Update import from "./geometry.js"']] as const) {
      const result = await bridge.call("code_actions", { ...point, kinds: ["quickfix"] });
      const listed = result.structuredContent as any;
      const fix = listed.items.find((item: any) => item.title === title);
      expect(fix).toMatchObject({ kind: "quickfix", has_edit: true, disabled: null });
      expect(fix.fixes.length).toBe(1);
      for (const forbidden of ["edit", "command", "arguments", "data", "changes", "documentChanges"]) {
        expect(keysOf(listed).has(forbidden)).toBe(false);
      }
      expect(result.content.map((c) => c.text).join("")).not.toMatch(/"(edit|command|arguments|data)"/);
    }
  });

  test("a range takes the diagnostics that overlap it; a point and a range together are refused", async () => {
    const result = await bridge.ok("code_actions", { path: "ts/broken.ts", range: span("ts/broken.ts", "new Square(1)") });
    expect(result.items.some((item: any) => item.fixes.some((fix: any) => fix.code === "2304"))).toBe(true);
    const error = await bridge.fail("code_actions", { ...at("ts/broken.ts", "Circle"), range: span("ts/broken.ts", "Circle") });
    expect(error.code).toBe("InvalidArguments");
  });
});

describe("rename preview", () => {
  test("lists every occurrence across files and writes nothing", async () => {
    const before = snapshotFiles(root);
    const result = await bridge.ok("rename_preview", { ...at("ts/geometry.ts", "totalArea"), new_name: "sumOfAreas" });
    expect(result.applied).toBe(false);
    expect(result.total_edits).toBe(5);
    expect(result.file_operations).toEqual([]);
    expect(result.files.flatMap((file: any) => file.edits.map((edit: any) => `${file.path}:${edit.range.start.line} ${edit.new_text}`))).toEqual(
      totalAreaUses().map((use) => `${use} sumOfAreas`),
    );
    expect(result.files[2].edits[1]).toEqual({
      range: span("ts/summary.ts", "totalArea", "🟢"),
      new_text: "sumOfAreas",
      text: '  return "🟢 " + totalArea([new Square(3)]).toFixed(1);',
    });
    expect(snapshotFiles(root)).toEqual(before);
  });

  test("a keyword cannot be renamed: InvalidArguments with the server's reason", async () => {
    const error = await bridge.fail("rename_preview", { ...at("ts/geometry.ts", "return", "totalArea"), new_name: "x" });
    expect(error).toMatchObject({ code: "InvalidArguments", details: { reason: "You cannot rename this element." } });
  });
});

describe("symbol addressing", () => {
  test("hover and definition by a dotted name path", async () => {
    const hover = await bridge.ok("hover", { path: "ts/geometry.ts", symbol: "Widget.area" });
    expect(hover.contents).toContain("Widget.area(): number");
    const definition = await bridge.ok("definition", { path: "ts/geometry.ts", symbol: "Widget.area" });
    expect(definition.items.map((item: any) => item.selection_range)).toEqual([span("ts/geometry.ts", "area", "class Widget")]);
  });

  test("an ambiguous name lists the candidates; line chooses; symbol with column is refused", async () => {
    const error = await bridge.fail("definition", { path: "ts/geometry.ts", symbol: "area" });
    expect(error.code).toBe("InvalidArguments");
    expect(error.details.candidates.map((c: any) => c.name_path)).toEqual(["Shape.area", "Circle.area", "Square.area", "Widget.area"]);
    const line = positionOf(source("ts/geometry.ts"), "area", "class Square").line;
    const chosen = await bridge.ok("hover", { path: "ts/geometry.ts", symbol: "area", line });
    expect(chosen.contents).toContain("Square.area(): number");
    const both = await bridge.fail("hover", { path: "ts/geometry.ts", symbol: "Widget.area", column: 3 });
    expect(both).toMatchObject({ code: "InvalidArguments", details: { fields: ["symbol", "column"] } });
  });
});

describe("paging and bounds on a symbol used 500 times", () => {
  const unit = () => at("ts/many.ts", "unit");

  test("a page too large is ResultTooLarge with fits, and pages of that size concatenate to the full list", async () => {
    const error = await bridge.fail("references", { ...unit(), limit: 1000 });
    expect(error.code).toBe("ResultTooLarge");
    expect(error.details.total).toBe(MANY + 1);
    const fits = error.details.fits as number;
    expect(fits).toBeGreaterThan(0);
    expect(fits).toBeLessThan(MANY + 1);
    // Later items are longer (larger line numbers), so a later page may fit fewer: take its `fits`.
    const all: unknown[] = [];
    let limit = fits;
    for (let offset = 0; offset < MANY + 1; ) {
      const result = await bridge.call("references", { ...unit(), offset, limit });
      if (result.isError) {
        const retry = JSON.parse(result.content[0]!.text).error;
        expect(retry.code).toBe("ResultTooLarge");
        expect(retry.details.fits).toBeLessThan(limit);
        limit = retry.details.fits;
        continue;
      }
      const page = result.structuredContent as any;
      expect(page).toMatchObject({ total: MANY + 1, offset });
      all.push(...page.items);
      offset += page.returned;
    }
    expect(all).toHaveLength(MANY + 1);
    expect(new Set(all.map((item: any) => `${item.range.start.line}:${item.range.start.column}`)).size).toBe(MANY + 1);
    expect((all[0] as any).text).toBe("export const unit = 1;");
  });

  test("identical calls give identical bytes", async () => {
    const first = await bridge.call("references", { ...unit(), offset: 100, limit: 50 });
    const second = await bridge.call("references", { ...unit(), offset: 100, limit: 50 });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });
});

describe("bad input for every new tool", () => {
  const tools: [string, Record<string, unknown>][] = [
    // declaration is NotSupported on this server before any position is looked at; its bad
    // input is tested on pyright (navigation-pyright-clangd.test.ts).
    ["definition", {}],
    ["type_definition", {}],
    ["implementation", {}],
    ["references", {}],
    ["call_hierarchy", { direction: "incoming" }],
    ["code_actions", {}],
    ["rename_preview", { new_name: "x" }],
  ];

  test.each(tools)("%s: past the end, zero and negative positions are InvalidArguments", async (tool, extra) => {
    const lineCount = source("ts/report.ts").split("\n").length;
    const pastEnd = await bridge.fail(tool, { path: "ts/report.ts", line: lineCount + 5, column: 1, ...extra });
    expect(pastEnd).toMatchObject({ code: "InvalidArguments", details: { line_count: lineCount } });
    const pastLine = await bridge.fail(tool, { path: "ts/report.ts", line: 1, column: 500, ...extra });
    expect(pastLine.code).toBe("InvalidArguments");
    for (const position of [
      { line: 0, column: 1 },
      { line: 1, column: 0 },
      { line: -1, column: 1 },
      { line: 1, column: -3 },
    ]) {
      const error = await bridge.fail(tool, { path: "ts/report.ts", ...position, ...extra });
      expect(error.code).toBe("InvalidArguments");
      expect(error.details.fields).toEqual([position.line < 1 ? "line" : "column"]);
    }
  });

  test("unknown direction and empty new_name are refused by the schema", async () => {
    const direction = await bridge.fail("call_hierarchy", { path: "ts/report.ts", line: 1, column: 1, direction: "sideways" });
    expect(direction).toMatchObject({ code: "InvalidArguments", details: { fields: ["direction"] } });
    const name = await bridge.fail("rename_preview", { path: "ts/report.ts", line: 1, column: 1, new_name: "" });
    expect(name).toMatchObject({ code: "InvalidArguments", details: { fields: ["new_name"] } });
    const missing = await bridge.fail("definition", { path: "ts/report.ts", line: 1 });
    expect(missing).toMatchObject({ code: "InvalidArguments", details: { fields: ["column"] } });
  });
});
