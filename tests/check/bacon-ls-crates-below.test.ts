import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// bacon-ls runs one cargo project, the one at the workspace root: crates below a root that holds
// none, or apart from the root's cargo workspace, are listed as not checked with the reason (never
// a Timeout, never clean), and a [[workspace]] rooted at each crate checks it with its own cargo check.

const crate = (name: string) => ({
  [`crates/${name}/Cargo.toml`]: `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`,
  [`crates/${name}/src/lib.rs`]: 'pub fn f() -> i32 {\n    "x"\n}\n',
});

const workspaceOf = (name: string, root: string) => `[[workspace]]\nname = "${name}"\nroot = "${root}"\nservers = ["bacon-ls"]\n`;
const BACON_LS = '[[server]]\nname = "bacon-ls"\nprofile = "bacon-ls"\n\n';

interface Report {
  items: { path: string; message: string; workspace: string }[];
  summary: { not_checked?: { path: string; reason: string }[] };
}

let repo: TempRepo;
beforeAll(() => {
  requireBuild();
  requireBinary("cargo");
  requireCachedTool("bacon-ls/bin/bacon-ls");
  repo = tempRepo({ "bridge.toml": BACON_LS + workspaceOf("w", "."), ...crate("a"), ...crate("b") });
});
afterAll(() => repo?.remove());

describe("bacon-ls with crates below the workspace root", () => {
  test("no Cargo.toml at the root: each crate's files are listed as not checked, naming the crate and the fix; exit 0 at once, no Timeout", async () => {
    const result = await runCheckCli(["--format", "json"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.items).toEqual([]);
    expect(
      report.summary.not_checked?.map(({ path, reason }) => [
        path,
        reason.match(/(crates\/\w) is a cargo project apart from it; a \[\[workspace\]\] rooted at \1/)?.[1],
      ]),
    ).toEqual([
      ["crates/a/src/lib.rs", "crates/a"],
      ["crates/b/src/lib.rs", "crates/b"],
    ]);
  });

  test("a cargo workspace at the root answers its member; a crate apart from it is not checked", async () => {
    writeFileSync(join(repo.root, "Cargo.toml"), '[workspace]\nmembers = ["crates/a"]\nexclude = ["crates/b"]\nresolver = "2"\n');
    try {
      const result = await runCheckCli(["--format", "json"], { cwd: repo.root });
      expect(result.code, result.stderr).toBe(1);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.items.map((item) => [item.path, item.message.split(":")[0]])).toEqual([["crates/a/src/lib.rs", "error[E0308]"]]);
      expect(report.summary.not_checked?.map(({ path }) => path)).toEqual(["crates/b/src/lib.rs"]);
    } finally {
      rmSync(join(repo.root, "Cargo.toml"));
    }
  });

  test("a [[workspace]] rooted at each crate: each crate's own cargo check answers it", async () => {
    const config = join(repo.root, "crates.toml");
    writeFileSync(config, BACON_LS + workspaceOf("a", "crates/a") + workspaceOf("b", "crates/b"));
    const result = await runCheckCli(["--config", config, "--format", "json"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.items.map((item) => [item.workspace, item.path, item.message.split(":")[0]])).toEqual([
      ["a", "src/lib.rs", "error[E0308]"],
      ["b", "src/lib.rs", "error[E0308]"],
    ]);
    expect(report.summary.not_checked).toBeUndefined();
  });
});
