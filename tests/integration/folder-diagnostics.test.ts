// Diagnostics for folders and whole workspaces (CONTRACT §4.2), against real
// TypeScript 7's server on a generated 200-file project: folder and "." answers, paging,
// filtering, byte-identical repeats, parity with `lspmcp check`, cross-file freshness, bad input.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { generateTsWorkspace, profileConfig, type GeneratedTsWorkspace } from "../helpers/generated-workspace.js";

const FILES = 200;
const LIB_FILES = 50;

let workspace: GeneratedTsWorkspace;
let config: string;
let bridge: Bridge;

beforeAll(async () => {
  workspace = generateTsWorkspace(FILES, LIB_FILES);
  config = writeConfig(profileConfig(workspace.root, "typescript"));
  bridge = await startBridge(config);
}, 60_000);
afterAll(async () => bridge?.close());

type Item = { path: string; range: unknown; severity: string; code: string | null; source: string | null; message: string; channels: string[] };
const all = (args: Record<string, unknown>) =>
  bridge.ok<{ items: Item[]; total: number; returned: number; offset: number; files: number }>("diagnostics", { limit: 1000, ...args });
const errorPaths = (items: Item[]) => [...new Set(items.filter((item) => item.severity === "error").map((item) => item.path))].sort();

describe("a folder, the workspace root, and paths mixing both", () => {
  test("the sub-folder answers exactly its own files' diagnostics", async () => {
    const lib = await all({ path: "src/lib" });
    expect(lib.files).toBe(LIB_FILES);
    expect(lib.items.every((item) => item.path.startsWith("src/lib/"))).toBe(true);
    expect(errorPaths(lib.items)).toEqual(workspace.errorFiles.filter((path) => path.startsWith("src/lib/")));
    expect(lib.items.filter((item) => item.severity === "error").every((item) => item.code === "2322")).toBe(true);
  }, 180_000);

  test('"." answers every file, in canonical order, with the files count', async () => {
    const root = await all({ path: "." });
    expect(root.files).toBe(FILES);
    expect(errorPaths(root.items)).toEqual(workspace.errorFiles);
    // Every file without an error has its unused local as a hint.
    expect(root.items.filter((item) => item.severity === "hint").length).toBe(FILES - 2 - workspace.errorFiles.length);
    const key = (item: Item) => JSON.stringify([item.path, item.range]);
    const paths = root.items.map((item) => item.path);
    expect(paths).toEqual([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(root.items.map(key)).size).toBe(root.items.length);
    expect(root.total).toBe(root.items.length);
  }, 180_000);

  test("paths may mix files and folders; a file named twice counts once", async () => {
    const mixed = await all({ paths: ["src/lib", "src/app.ts", "src/lib/api.ts", `${workspace.root}/src/m100.ts`] });
    expect(mixed.files).toBe(LIB_FILES + 2);
    const lib = await all({ path: "src/lib" });
    const extra = (await all({ paths: ["src/app.ts", "src/m100.ts"] })).items;
    expect(mixed.items).toEqual([...extra.filter((item) => item.path === "src/app.ts"), ...lib.items, ...extra.filter((item) => item.path === "src/m100.ts")]);
  }, 180_000);

  test("pages concatenate to the whole list; min_severity filters; repeats are byte-identical", async () => {
    const whole = await all({ path: "." });
    const pages: Item[] = [];
    for (let offset = 0; offset < whole.total; offset += 37) {
      const page = await bridge.ok<{ items: Item[]; total: number; returned: number; offset: number; files: number }>("diagnostics", {
        path: ".",
        offset,
        limit: 37,
      });
      expect(page).toMatchObject({ total: whole.total, offset, files: FILES });
      pages.push(...page.items);
    }
    expect(pages).toEqual(whole.items);
    const errors = await all({ path: ".", min_severity: "error" });
    expect(errors.items).toEqual(whole.items.filter((item) => item.severity === "error"));
    expect(errors.files).toBe(FILES);
    const first = await bridge.call("diagnostics", { path: ".", limit: 50 });
    const second = await bridge.call("diagnostics", { path: ".", limit: 50 });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  }, 300_000);

  test("the set equals `lspmcp check --format json` on the same workspace", async () => {
    const run = await runCheckCli(["--config", config, "--format", "json", "--fail-on", "never", "--quiet"], { cwd: workspace.root });
    expect(run.code).toBe(0);
    const fromCheck = JSON.parse(run.stdout).items.map((finding: Record<string, unknown>) => {
      const { path, range, severity, code, source, message } = finding;
      return { path, range, severity, code, source, message };
    });
    const fromTool = (await all({ path: "." })).items.map(({ channels: _channels, ...item }) => item);
    expect(fromTool).toEqual(fromCheck);
    expect(JSON.parse(run.stdout).summary.files).toBe(FILES);
  }, 300_000);
});

describe("freshness across files", () => {
  test("an exported signature changed on disk breaks its caller in the next folder call, and the fix clears it", async () => {
    const api = join(workspace.root, "src/lib/api.ts");
    const original = readFileSync(api, "utf8");
    const callerErrors = async () => (await all({ path: "." })).items.filter((item) => item.path === "src/app.ts" && item.severity === "error");
    expect(await callerErrors()).toEqual([]);
    writeFileSync(api, original.replace("greet(name: string)", "greet(name: string, times: number)"));
    try {
      expect((await callerErrors()).map((item) => item.code)).toEqual(["2554"]);
    } finally {
      writeFileSync(api, original);
    }
    expect(await callerErrors()).toEqual([]);
  }, 300_000);
});

describe("bad input", () => {
  test("a folder that does not exist is FileNotFound", async () => {
    expect((await bridge.fail("diagnostics", { path: "src/nowhere" })).code).toBe("FileNotFound");
    expect((await bridge.fail("diagnostics", { paths: ["src/lib", "src/nowhere/"] })).code).toBe("FileNotFound");
  });

  test("a folder outside the workspace is PathOutsideWorkspace", async () => {
    expect((await bridge.fail("diagnostics", { path: ".." })).code).toBe("PathOutsideWorkspace");
    expect((await bridge.fail("diagnostics", { path: "/tmp" })).code).toBe("PathOutsideWorkspace");
  });

  test("a folder with no claimed file is an empty result with files: 0", async () => {
    expect(await bridge.ok("diagnostics", { path: "docs" })).toEqual({ items: [], total: 0, returned: 0, offset: 0, files: 0 });
  });
});
