import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { discoverConfig, gitTopLevel } from "../../../src/config/discover-config.js";
import { tempDir, writeFiles } from "./fixture.js";

describe("config discovery without --config", () => {
  test("finds a bridge.toml two levels up", async () => {
    const dir = await writeFiles(await tempDir(), { ".git/HEAD": "", "bridge.toml": "", "a/b/x.ts": "" });
    expect(discoverConfig(join(dir, "a/b"))).toEqual({ kind: "file", path: join(dir, "bridge.toml") });
  });

  test("the nearest wins, and .lspmcp.toml counts too (bridge.toml first within one folder)", async () => {
    const dir = await writeFiles(await tempDir(), { ".git/HEAD": "", "bridge.toml": "", "a/.lspmcp.toml": "", "a/b/.keep": "" });
    expect(discoverConfig(join(dir, "a/b"))).toEqual({ kind: "file", path: join(dir, "a/.lspmcp.toml") });
    await writeFiles(dir, { "a/bridge.toml": "" });
    expect(discoverConfig(join(dir, "a/b"))).toEqual({ kind: "file", path: join(dir, "a/bridge.toml") });
  });

  test("stops at the git top-level: a bridge.toml above it is not used; the embedded default is, at the top-level", async () => {
    const dir = await writeFiles(await tempDir(), { "bridge.toml": "", "repo/.git/HEAD": "", "repo/src/deep/x.ts": "" });
    expect(discoverConfig(join(dir, "repo/src/deep"))).toEqual({ kind: "default", root: join(dir, "repo") });
    expect(gitTopLevel(join(dir, "repo/src/deep"))).toBe(join(dir, "repo"));
  });

  test("a worktree's or submodule's .git file marks the top-level as well", async () => {
    const dir = await writeFiles(await tempDir(), { "sub/.git": "gitdir: ../elsewhere\n", "sub/lib/y.py": "" });
    expect(discoverConfig(join(dir, "sub/lib"))).toEqual({ kind: "default", root: join(dir, "sub") });
  });

  test("a folder called bridge.toml is not a config", async () => {
    const dir = await writeFiles(await tempDir(), { ".git/HEAD": "" });
    mkdirSync(join(dir, "bridge.toml"));
    expect(discoverConfig(dir)).toEqual({ kind: "default", root: dir });
  });
});
