import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { toolCacheDir } from "../../src/config/tool-cache.js";
import { runCheckCli } from "../check/helpers/cli.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// CONTRACT §3, "The toolchain's own environment": a server sees the user's build as the user's own
// tools do. Here the user's Go keeps its modules where the golang image keeps them, in
// GOPATH/pkg/mod with GOPATH outside HOME, so a gopls that saw only PATH and HOME would look in
// HOME/go/pkg/mod, find nothing, and report "could not import" where go build reports the real
// type error. HOME is an empty folder of the test's; XDG_CACHE_HOME says where lspmcp's tool cache is.

const MAIN_GO = `package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

var _ int = errgroup.WithContext

func main() {
	var g errgroup.Group
	fmt.Println(g.Wait())
}
`;

let root: string;
let userEnv: Record<string, string>;

beforeAll(() => {
  requireBuild();
  requireBinary("go");
  requireCachedTool("go/bin/gopls");
  const dir = tempDir("lspmcp-toolchain-env-");
  root = join(dir, "usesync");
  mkdirSync(join(dir, "home"));
  mkdirSync(root);
  userEnv = { HOME: join(dir, "home"), GOPATH: join(dir, "gopath"), XDG_CACHE_HOME: dirname(toolCacheDir()) };
  writeFileSync(join(root, "go.mod"), "module example.com/usesync\n\ngo 1.25.0\n");
  writeFileSync(join(root, "main.go"), MAIN_GO);
  // The module golang.org/x/sync comes from the tool cache's module download cache (where setup
  // built gopls), offline, into the user's GOPATH; -modcacherw lets the temp folder be removed.
  const proxy = `file://${join(toolCacheDir(), "go/mod/cache/download")}`;
  execFileSync("go", ["mod", "tidy"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...userEnv, GOPROXY: proxy, GOSUMDB: "off", GOFLAGS: "-modcacherw", GOTOOLCHAIN: "local" },
    stdio: "ignore",
  });
  writeFileSync(join(dir, "bridge.toml"), profilesConfig(root, ["gopls"]));
});

describe("gopls with the user's GOPATH outside HOME (as in the golang image)", () => {
  test("lspmcp check reports go build's type error, resolved through the module, and nothing else", async () => {
    const goBuild = (() => {
      try {
        execFileSync("go", ["build", "./..."], {
          cwd: root,
          env: { PATH: process.env.PATH ?? "", ...userEnv, GOPROXY: "off" },
          encoding: "utf8",
          stdio: "pipe",
        });
        return "";
      } catch (error) {
        return String((error as { stderr: string }).stderr);
      }
    })();
    const result = await runCheckCli(["--config", join(dirname(root), "bridge.toml"), "--format", "json"], { cwd: root, env: userEnv });
    expect(result.code, result.stderr).toBe(1);
    const items = JSON.parse(result.stdout).items as { path: string; range: { start: { line: number; column: number } }; message: string }[];
    // One finding, the one go build prints: its text names the module's types, so gopls loaded it.
    expect(items.map((item) => `${item.path}:${item.range.start.line}:${item.range.start.column}: ${item.message}`)).toEqual([
      "main.go:9:13: cannot use errgroup.WithContext (value of type func(ctx context.Context) (*errgroup.Group, context.Context)) as int value in variable declaration",
    ]);
    expect(goBuild).toContain(`./main.go:9:13: ${items[0]!.message}`);
  });
});
