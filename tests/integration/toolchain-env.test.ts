import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { toolCacheDir } from "../../src/config/tool-cache.js";
import { runCheckCli } from "../check/helpers/cli.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig, snapshotFiles } from "../helpers/workspace.js";

// CONTRACT §3, "The toolchain's own environment": a server sees the user's build as the user's own
// tools do. Here the user's Go keeps its modules where the golang image keeps them, in
// GOPATH/pkg/mod with GOPATH outside HOME, so a gopls that saw only PATH and HOME would look in
// HOME/go/pkg/mod, find nothing, and report "could not import" where go build reports the real
// type error; and the user's Rust has CARGO_HOME and RUSTUP_HOME outside HOME, as the rust image
// has them, where a rust-analyzer (and the rustup proxy its `cargo` is) that saw only HOME could
// not choose a toolchain. HOME is an empty folder of the test's; XDG_CACHE_HOME says where
// lspmcp's tool cache is.

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
  // The module golang.org/x/sync comes from the module download cache of gopls's install
  // ({cache}/build/go/mod; {cache}/go/mod before installs kept their build caches apart), offline,
  // into the user's GOPATH; -modcacherw lets the temp folder be removed.
  const modCache = ["build/go/mod", "go/mod"].map((folder) => join(toolCacheDir(), folder)).find((folder) => existsSync(folder));
  if (modCache === undefined) throw new Error(`no Go module cache in ${toolCacheDir()}: gopls's install makes one (npm test runs it)`);
  const proxy = `file://${join(modCache, "cache/download")}`;
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

const LIB_RS = 'pub fn price() -> u32 {\n    "free"\n}\n';

describe("rust-analyzer with CARGO_HOME and RUSTUP_HOME outside HOME (as in the rust image)", () => {
  test("the session starts, and cargo check's error is reported as the user's cargo reports it", async () => {
    requireCachedTool("rust-analyzer/bin/rust-analyzer");
    const cargoBin = dirname(execFileSync("sh", ["-c", "command -v cargo"], { encoding: "utf8" }).trim());
    const rustEnv = {
      HOME: userEnv.HOME!,
      XDG_CACHE_HOME: userEnv.XDG_CACHE_HOME!,
      CARGO_HOME: process.env.CARGO_HOME ?? join(homedir(), ".cargo"),
      RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), ".rustup"),
    };
    const crate = join(tempDir("lspmcp-toolchain-env-rust-"), "shop");
    mkdirSync(join(crate, "src"), { recursive: true });
    writeFileSync(join(crate, "Cargo.toml"), '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(crate, "src/lib.rs"), LIB_RS);
    // The lock the user would commit (no dependencies: made offline), so nothing is written beside it.
    execFileSync("cargo", ["generate-lockfile", "--offline"], { cwd: crate, env: { PATH: process.env.PATH ?? "", ...rustEnv }, stdio: "ignore" });
    writeFileSync(join(crate, "..", "bridge.toml"), profilesConfig(crate, ["rust-analyzer"]));
    const before = snapshotFiles(crate);
    const result = await runCheckCli(["--config", join(crate, "..", "bridge.toml"), "--format", "json"], {
      cwd: crate,
      // The rust image puts cargo's bin folder on PATH; nothing of it is under HOME.
      env: { ...rustEnv, PATH: `${cargoBin}:/usr/local/bin:/usr/bin:/bin` },
    });
    expect(result.code, result.stderr).toBe(1);
    // With its lock committed, the crate is not written to (docs/contributors/contract-notes.md: without one, cargo check writes it).
    expect(snapshotFiles(crate)).toEqual(before);
    const items = JSON.parse(result.stdout).items as { path: string; source: string; code: string; range: { start: { line: number; column: number } } }[];
    expect(items).toContainEqual(
      expect.objectContaining({ path: "src/lib.rs", source: "rustc", code: "E0308", range: expect.objectContaining({ start: { line: 2, column: 5 } }) }),
    );
  });
});
