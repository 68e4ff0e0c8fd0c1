// An agent's first moves on a repository it has never seen (issue 27): it names things where
// they are used (an imported class, a called function), it does not know which servers the
// embedded default started, and it leaves out what has a default. Both modes, no config.
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { expectAttached, type Started } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";

const FIXTURE = join(REPO, "tests/fixtures/workspaces/uses");

/** The fixture's files, path → text. */
function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(FIXTURE, { recursive: true, encoding: "utf8" })) {
    const path = join(FIXTURE, entry);
    if (statSync(path).isFile()) files[relative(FIXTURE, path)] = readFileSync(path, "utf8");
  }
  return files;
}

describe.each([
  ["standalone", false],
  ["shared", true],
])("names where they are used, %s, embedded default", (_mode, shared) => {
  let repo: TempRepo;
  let bridge: Bridge;
  let started: Started;
  const text = (path: string) => readFileSync(join(repo.root, path), "utf8");

  beforeAll(async () => {
    repo = tempRepo(fixtureFiles());
    started = { config: null, cwd: repo.root, env: { TMPDIR: tempDir() } };
    bridge = await startBridge(null, started.env, { shared, cwd: repo.root });
  });
  afterAll(async () => {
    await bridge?.close();
    repo?.remove();
  });

  test("the session's first workspace_symbols, without `server`, asks every server that searches and equals a later one", { timeout: 300_000 }, async () => {
    const first = await bridge.call("workspace_symbols", { query: "AppBase" });
    expect(first.isError, first.content[0]?.text).toBeFalsy();
    const classes = (first.structuredContent!.items as any[]).filter((item) => item.name === "AppBase" && item.kind === "class");
    expect(classes.map((item) => item.path)).toEqual(["py/base.py", "ts/base.ts"]);
    const status = await bridge.ok("session_status");
    // The embedded default started a JSON server too: it was asked whether it searches (it does not).
    expect(status.sessions.map((session: any) => session.server).sort()).toEqual(["json", "pyright", "typescript"]);
    if (shared) await expectAttached(started, [bridge]);
    for (let i = 0; i < 3; i++) await bridge.ok("workspace_symbols", { query: "compose" });
    expect(JSON.stringify(await bridge.call("workspace_symbols", { query: "AppBase" }))).toBe(JSON.stringify(first));
  });

  test("call_hierarchy without `direction` lists the callers", { timeout: 300_000 }, async () => {
    const result = await bridge.ok("call_hierarchy", { path: "ts/base.ts", symbol: "compose" });
    expect(result.items).toEqual([expect.objectContaining({ name: "run", path: "ts/app.ts" })]);
  });

  test.each([
    ["ts/app.ts", "ts/base.ts", "AppBase", "class AppBase"],
    ["py/app.py", "py/base.py", "AppBase", "class AppBase"],
    ["ts/app.ts", "ts/base.ts", "compose", "function compose"],
    ["py/app.py", "py/base.py", "compose", "def compose"],
  ])("definition of a name %s imports and uses is found in %s: %s", { timeout: 300_000 }, async (path, target, symbol, declaration) => {
    const result = await bridge.ok("definition", { path, symbol });
    const at = positionOf(text(target), symbol, declaration.split(" ")[0]);
    expect(result.items).toEqual([expect.objectContaining({ path: target, selection_range: expect.objectContaining({ start: at }) })]);
  });

  test.each(["ts/app.ts", "py/app.py"])("a name only in a comment and a string of %s is not found", { timeout: 300_000 }, async (path) => {
    const error = await bridge.fail("hover", { path, symbol: "Phantom" });
    expect(error).toMatchObject({ code: "InvalidArguments", details: { fields: ["symbol"], symbol: "Phantom" } });
    expect(error.message).toContain("uses no such name");
  });

  test.each([
    ["ts/app.ts", "concat"],
    ["py/app.py", "join"],
  ])("a name %s uses for two different things (%s) lists the first use of each as candidates", { timeout: 300_000 }, async (path, symbol) => {
    const error = await bridge.fail("definition", { path, symbol });
    const lines = text(path).split("\n");
    const uses = lines.flatMap((line, i) =>
      line.includes(`.${symbol}(`) ? [{ line: i + 1, column: [...line.slice(0, line.indexOf(`.${symbol}(`))].length + 2, text: line }] : [],
    );
    expect(uses).toHaveLength(2);
    expect(error).toMatchObject({ code: "InvalidArguments", details: { fields: ["symbol"], symbol, candidates: uses } });
    expect(error.message).toContain(`"${symbol}" names 2 different things`);
  });

  test.each(["ts/app.ts", "py/app.py"])("one name for two different parameters of %s: candidates, and `line` chooses", { timeout: 300_000 }, async (path) => {
    const error = await bridge.fail("references", { path, symbol: "items" });
    const lines = text(path).split("\n");
    const declared = lines.flatMap((line, i) => (/def |function /.test(line) && line.includes("items") ? [i + 1] : []));
    expect(declared).toHaveLength(2);
    // pyright lists parameters as document symbols ({name_path, kind, range}); tsserver does not,
    // so there they are uses ({line, column, text}).
    expect(error).toMatchObject({ code: "InvalidArguments", details: { fields: ["symbol"], symbol: "items" } });
    expect(error.details.candidates.map((c: any) => c.line ?? c.range.start.line)).toEqual(declared);
    const chosen = await bridge.ok("references", { path, symbol: "items", line: declared[1] });
    expect(chosen.items.map((item: any) => item.selection_range.start.line)).toEqual([declared[1], declared[1]! + 1]);
  });
});

describe("workspace_symbols merges the answers of every server", () => {
  let bridge: Bridge;
  let root: string;

  beforeAll(async () => {
    root = join(tempDir(), "uses");
    cpSync(FIXTURE, root, { recursive: true });
    // Two servers that find the same symbols: what both answer appears once.
    const config = `
[[server]]
name = "ts-a"
profile = "typescript"

[[server]]
name = "ts-b"
profile = "typescript"
languages = [{ id = "typescript", extensions = [".ts"] }]

[[workspace]]
name = "uses"
root = ${JSON.stringify(root)}
servers = ["ts-a", "ts-b"]
default_server = { ".ts" = "ts-a" }
`;
    bridge = await startBridge(writeConfig(config));
  });
  afterAll(async () => bridge?.close());

  test("an identical item from two servers appears once; `server` asks only that one", { timeout: 300_000 }, async () => {
    const merged = await bridge.ok("workspace_symbols", { query: "AppBase" });
    const alone = await bridge.ok("workspace_symbols", { server: "ts-b", query: "AppBase" });
    expect(alone.total).toBeGreaterThan(0);
    expect(merged).toEqual(alone);
  });
});
