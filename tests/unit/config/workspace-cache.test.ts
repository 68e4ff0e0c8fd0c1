import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { expandWorkspaceCache, sweepWorkspaceCaches, workspaceCachesDir } from "../../../src/config/workspace-cache.js";
import { tempDir } from "../../helpers/temp.js";

// A tool cache of its own per test, so that nothing here touches the real one.
function fixture() {
  const home = tempDir();
  const env = { XDG_CACHE_HOME: home };
  const root = (name: string) => {
    const dir = join(home, "roots", name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  return { env, root, caches: () => (existsSync(workspaceCachesDir(env)) ? readdirSync(workspaceCachesDir(env)).sort() : []) };
}

describe("a workspace's own folder in the tool cache ({workspace_cache}/)", () => {
  test("is one per workspace root: two copies of a repository never share it, one root always finds its own", async () => {
    const { env, root } = fixture();
    const [a, b] = [root("a"), root("b")];
    const first = await expandWorkspaceCache({ CARGO_TARGET_DIR: "{workspace_cache}/cargo-target", OTHER: "x" }, { root: a }, env);
    const second = await expandWorkspaceCache({ CARGO_TARGET_DIR: "{workspace_cache}/cargo-target" }, { root: b }, env);
    const again = await expandWorkspaceCache({ CARGO_TARGET_DIR: "{workspace_cache}/cargo-target" }, { root: a }, env);
    expect(first.OTHER).toBe("x");
    expect(first.CARGO_TARGET_DIR!.startsWith(`${workspaceCachesDir(env)}/`)).toBe(true);
    expect(first.CARGO_TARGET_DIR).toMatch(/\/workspaces\/[0-9a-f]{16}\/cargo-target$/);
    expect(second.CARGO_TARGET_DIR).not.toBe(first.CARGO_TARGET_DIR);
    expect(again.CARGO_TARGET_DIR).toBe(first.CARGO_TARGET_DIR);
    // The folder is made and names its root, which the sweep reads.
    const folder = join(first.CARGO_TARGET_DIR!, "..");
    expect(readFileSync(join(folder, "root"), "utf8")).toBe(a);
  });

  test("a workspace with its own state_dir (a since snapshot) uses that, and records no root in the cache", async () => {
    const { env, root, caches } = fixture();
    const state = join(root("snapshot"), "state", "0");
    const expanded = await expandWorkspaceCache({ CARGO_TARGET_DIR: "{workspace_cache}/cargo-target" }, { root: root("tree"), state_dir: state }, env);
    expect(expanded.CARGO_TARGET_DIR).toBe(join(state, "cargo-target"));
    expect(existsSync(state)).toBe(true);
    expect(caches()).toEqual([]);
  });

  test("only a leading {workspace_cache}/ is expanded, and a server that names none makes nothing", async () => {
    const { env, root, caches } = fixture();
    const plain = { A: "{cache}/x", B: "a/{workspace_cache}/b", C: "{workspace_cache}" };
    expect(await expandWorkspaceCache(plain, { root: root("a") }, env)).toEqual(plain);
    expect(caches()).toEqual([]);
  });

  test("the folders of roots that no longer exist are swept when a session starts; live ones and half-made ones stay", async () => {
    const { env, root, caches } = fixture();
    const [gone, kept] = [root("gone"), root("kept")];
    const goneTarget = (await expandWorkspaceCache({ T: "{workspace_cache}/t" }, { root: gone }, env)).T!;
    const keptTarget = (await expandWorkspaceCache({ T: "{workspace_cache}/t" }, { root: kept }, env)).T!;
    mkdirSync(goneTarget, { recursive: true });
    // Being made by another bridge: no record of its root yet.
    mkdirSync(join(workspaceCachesDir(env), "0123456789abcdef"));
    expect(caches()).toHaveLength(3);
    rmSync(gone, { recursive: true });
    expect(await sweepWorkspaceCaches(env)).toBe(1);
    expect(existsSync(join(goneTarget, ".."))).toBe(false);
    expect(existsSync(join(keptTarget, ".."))).toBe(true);
    expect(caches()).toContain("0123456789abcdef");
    // And a start does it by itself.
    const later = root("later");
    rmSync(kept, { recursive: true });
    await expandWorkspaceCache({ T: "{workspace_cache}/t" }, { root: later }, env);
    expect(existsSync(join(keptTarget, ".."))).toBe(false);
    expect(caches()).toHaveLength(2);
  });
});
