import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { loadProfile } from "../../../src/config/profiles.js";
import { ADAPTER_NAMES, REPLACED_SERVER_KEYS } from "../../../src/config/schema.js";
import { REPO } from "../../helpers/paths.js";
import { configDir, fakeExecutable, problemsOf, serverToml, tempDir, WORKSPACE_OF_ONE, writeFiles } from "./fixture.js";

// One key, `adapter`, picks what a server needs beyond the LSP spec; the per-server keys it
// replaced are refused with what to write instead, never read silently.
const WORKSPACE = WORKSPACE_OF_ONE;

describe("the adapter key", () => {
  test.each([
    ["settle_after_progress = true", "settle_after_progress", 'adapter = "biome"'],
    ['ready_log = "Server initialized with PID"', "ready_log", 'adapter = "biome"'],
    ['ignored_progress = ["index"]', "ignored_progress", 'adapter = "ccls"'],
    ["settle_barrier = true", "settle_barrier", 'adapter = "gopls"'],
    ["settle_flycheck = true", "settle_flycheck", 'adapter = "rust-analyzer"'],
  ])("a [[server]] that still sets `%s` is ConfigInvalid, saying what replaced it", async (line, key, replacement) => {
    const dir = await configDir(`${serverToml("one")}${line}\n${WORKSPACE}`);
    expect(await problemsOf(dir)).toEqual([{ path: `server[0].${key}`, message: `${key} was replaced by ${replacement}` }]);
  });

  test("every replaced key is named, and each replacement is an adapter that exists", () => {
    expect(Object.keys(REPLACED_SERVER_KEYS).sort()).toEqual([
      "ignored_progress",
      "ready_log",
      "settle_after_progress",
      "settle_barrier",
      "settle_flycheck",
      "watch_files",
    ]);
    for (const replacement of Object.values(REPLACED_SERVER_KEYS)) {
      expect(ADAPTER_NAMES).toContain(/^adapter = "([^"]*)"/.exec(replacement)?.[1]);
    }
  });

  test("a profile that still sets one is refused too, under the server that names the profile", async () => {
    const root = await tempDir();
    await fakeExecutable(root, "bin/pls");
    await writeFiles(root, {
      "servers/p.toml": `command = "bin/pls"\nversion = "1.0.0"\nlanguages = [{ id = "p", extensions = [".p"] }]\nsettle_barrier = true\n`,
    });
    const dir = await configDir(`[[server]]\nname = "one"\nprofile = "p"\n${WORKSPACE}`);
    expect(await problemsOf(dir, { packageRoot: root })).toEqual([
      { path: "server[0].profile", message: `profile ${join(root, "servers/p.toml")}: settle_barrier: settle_barrier was replaced by adapter = "gopls"` },
    ]);
  });

  test("the same key outside a server table is only unknown", async () => {
    const dir = await configDir(`[bridge]\nready_log = "x"\n${serverToml("one")}${WORKSPACE}`);
    expect(await problemsOf(dir)).toEqual([{ path: "bridge.ready_log", message: "unknown key" }]);
  });

  test("a [[server]] picks an adapter by name; none is the standard one; an unknown name is refused", async () => {
    const picked = await configDir(`${serverToml("one")}adapter = "biome"\n${WORKSPACE}`);
    expect((await loadConfig(join(picked, "bridge.toml"))).servers[0]!.adapter).toBe("biome");
    const plain = await configDir(`${serverToml("one")}${WORKSPACE}`);
    expect((await loadConfig(join(plain, "bridge.toml"))).servers[0]!.adapter).toBe("standard");
    const unknown = await configDir(`${serverToml("one")}adapter = "clangd"\n${WORKSPACE}`);
    const [problem] = await problemsOf(unknown);
    expect(problem).toMatchObject({ path: "server[0].adapter" });
    expect(problem!.message).toContain('"rust-analyzer"');
  });

  test.each([
    ["biome", "biome"],
    ["ccls", "ccls"],
    ["gopls", "gopls"],
    ["rust-analyzer", "rust-analyzer"],
    ["clangd", undefined],
    ["typescript", "typescript"],
  ])("the shipped profile %s names the adapter %s", async (profile, adapter) => {
    const loaded = await loadProfile(REPO, profile);
    expect(loaded.ok && loaded.profile.adapter).toBe(adapter);
  });
});
