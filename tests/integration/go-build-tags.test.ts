import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// Issue 36: a file that a build constraint leaves out (`//go:build icu`) is in no package of the
// build, so go build and go vet never look at it, and gopls answers only "No packages found for
// open file …". That is no finding about the code: the file is reported as not checked. With the
// tag in the user's GOFLAGS (which passes to gopls, inherit_env) the file is in the build, and
// checked as go build checks it.

const A_GO = 'package tags\n\nvar A int = "a"\n';
const ICU_GO = '//go:build icu\n\npackage tags\n\nvar B int = "b"\n';

let repo: TempRepo;
let config: string;
let bridge: Bridge;

beforeAll(async () => {
  requireBuild();
  requireBinary("go");
  requireCachedTool("go/bin/gopls");
  repo = tempRepo({ "go.mod": "module example.com/tags\n\ngo 1.25\n", "a.go": A_GO, "icu.go": ICU_GO });
  config = writeConfig(profilesConfig(repo.root, ["gopls"]));
  bridge = await startBridge(config);
});
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

const goBuild = (env: Record<string, string> = {}) => {
  try {
    execFileSync("go", ["build", "./..."], { cwd: repo.root, env: { ...process.env, GOPROXY: "off", GOTOOLCHAIN: "local", ...env }, stdio: "pipe" });
    return "";
  } catch (error) {
    return String((error as { stderr: Buffer }).stderr);
  }
};

describe("a Go file its build constraints leave out", () => {
  test("lspmcp check: go build's one error, and icu.go listed as not checked, in json and text", async () => {
    expect(goBuild()).toMatch(/^\.\/a\.go:3:13: cannot use "a"/m);
    expect(goBuild()).not.toContain("icu.go");
    const json = await runCheckCli(["--config", config, "--format", "json"], { cwd: repo.root });
    expect(json.code, json.stderr).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(
      report.items.map(
        (item: { path: string; range: { start: { line: number; column: number } } }) => `${item.path}:${item.range.start.line}:${item.range.start.column}`,
      ),
    ).toEqual(["a.go:3:13"]);
    expect(report.summary.not_checked).toEqual([
      { workspace: "langs", server: "gopls", path: "icu.go", reason: "no package of the build includes it (its build constraints leave it out)" },
    ]);
    const text = await runCheckCli(["--config", config], { cwd: repo.root });
    expect(text.stdout).toContain("icu.go: not checked by gopls: no package of the build includes it (its build constraints leave it out)\n");
    expect(text.stdout).toMatch(/; 1 file not checked; 1 at or above error\n$/);
  });

  test("the diagnostics tool: the finding, and the file not checked beside it", async () => {
    const answer = await bridge.ok("diagnostics", { path: "." });
    expect(answer.items.map((item: { path: string }) => item.path)).toEqual(["a.go"]);
    expect(answer.not_checked).toEqual(["icu.go (gopls): no package of the build includes it (its build constraints leave it out)"]);
  });

  test("with -tags=icu in the user's GOFLAGS, icu.go is in the build and checked as go build checks it", async () => {
    expect(goBuild({ GOFLAGS: "-tags=icu" })).toMatch(/^\.\/icu\.go:5:13: cannot use "b"/m);
    const json = await runCheckCli(["--config", config, "--format", "json"], { cwd: repo.root, env: { GOFLAGS: "-tags=icu" } });
    const report = JSON.parse(json.stdout);
    expect(
      report.items.map(
        (item: { path: string; range: { start: { line: number; column: number } } }) => `${item.path}:${item.range.start.line}:${item.range.start.column}`,
      ),
    ).toEqual(["a.go:3:13", "icu.go:5:13"]);
    expect(report.summary.not_checked).toBeUndefined();
  });
});
