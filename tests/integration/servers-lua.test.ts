import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { emmyluaCheckFindings } from "../helpers/emmylua-cli.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { cachedTool, requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// Issue 39: Lua, by emmylua_ls 0.25.1 (crates.io; lua-language-server is on no registry this
// project installs from), on tests/fixtures/workspaces/lua: a .emmyrc.json, a class in one file and
// its misuse in another (a finding that needs the other file indexed), astral characters before
// a finding's column. Held to emmylua_check 0.25.1, the same analysis as a CLI.
const FILES = ["cafe/menu.lua", "cafe/orders.lua"];

type Item = Finding & { source: string | null; channels: string[] };
let repo: TempRepo;
let bridge: Bridge;
let first: { items: Item[]; total: number };
let cli: Finding[];
const source = (path: string) => readFileSync(join(repo.root, path), "utf8");

beforeAll(async () => {
  requireCachedTool("emmylua/bin/emmylua_ls");
  const check = requireCachedTool("emmylua/bin/emmylua_check");
  repo = fixtureRepo("lua");
  bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["emmylua"])));
  // The first call of a fresh bridge: a server still indexing must not pass for clean.
  [first, cli] = await Promise.all([diagnostics(bridge, { paths: FILES }) as Promise<typeof first>, emmyluaCheckFindings(repo.root, check)]);
}, 300_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

describe("emmylua_ls against emmylua_check", () => {
  test("the CLI finds the fixture's misuses, the cross-file one included, so a partial answer cannot pass", () => {
    const codes = cli.map((finding) => finding.code);
    expect(cli.length).toBeGreaterThanOrEqual(5);
    expect(codes).toEqual(expect.arrayContaining(["undefined-global", "unused", "assign-type-mismatch", "param-type-mismatch", "undefined-field"]));
  });

  test("the first answer is emmylua_check --output-format json exactly: file, line, code-point column, code, severity, message", () => {
    expect(findingKeys(first.items)).toEqual(findingKeys(cli));
    expect(new Set(first.items.map((item) => item.source))).toEqual(new Set(["EmmyLua"]));
  });

  test("a second call answers byte for byte the same", async () => {
    expect(JSON.stringify(await diagnostics(bridge, { paths: FILES }))).toBe(JSON.stringify(first));
  });

  test("a column after three astral characters is counted in code points (emmylua_ls counts them, and negotiates UTF-16)", () => {
    const undefinedName = first.items.find((item) => item.code === "undefined-global")!;
    expect(undefinedName.range.start).toEqual(positionOf(source("cafe/orders.lua"), "undefinedName"));
  });

  test("pinned by `emmylua_ls --version`; hover and definition answer across files", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions[0]).toMatchObject({ state: "ready", pinned_version: "0.25.1", reported_version: "emmylua_ls 0.25.1" });
    const at = { path: "cafe/orders.lua", ...positionOf(source("cafe/orders.lua"), "add", "menu:") };
    expect((await bridge.ok("hover", at)).contents).toContain("cents");
    const definition = await bridge.ok("definition", at);
    expect(definition.items.map((item: { path: string; text: string }) => [item.path, item.text])).toEqual([
      ["cafe/menu.lua", "function Menu:add(drink, cents)"],
    ]);
  });

  test("the server writes nothing into the workspace; its log goes to the tool cache (XDG_DATA_HOME), not the user's home", () => {
    expect(repo.status()).toBe("");
    // emmylua_ls names a workspace's log after its root's path, '/' made '_'.
    const log = `emmylua-data/emmylua_ls/logs/${repo.root.slice(1).split("/").join("_")}.log`;
    expect(existsSync(cachedTool(log)), log).toBe(true);
  });
});
