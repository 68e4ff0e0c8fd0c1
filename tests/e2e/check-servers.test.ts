// Issue 36: `lspmcp check` on the servers no other check test runs — basedpyright, Biome and
// clangd — each in a workspace of its own in one repository whose bridge.toml names them, run as
// a user runs it (the bin found on PATH, the config found in the current folder). Each server's
// findings and the gate's exit code are held to the tool's own command line.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { biomeLintFindings } from "../helpers/biome-cli.js";
import { clangFindings } from "../helpers/clang-cli.js";
import { findingKeys, pyrightCliFindings, startKeys, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { pathWithLspmcp, runLspmcp, type RunResult } from "./helpers/lspmcp-on-path.js";

const fixture = (path: string) => readFileSync(join(REPO, "tests/fixtures/workspaces", path), "utf8");

/** basedpyright, Biome and clangd, each on a folder of its own, each folder with a file that has warnings only. */
const FILES: Record<string, string> = {
  "bridge.toml": [
    ...["basedpyright", "biome", "clangd"].map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`),
    ...[
      ["py", "basedpyright"],
      ["web", "biome"],
      ["c", "clangd"],
    ].map(([name, server]) => `[[workspace]]\nname = "${name}"\nroot = "${name}"\nservers = ["${server}"]\n`),
  ].join("\n"),
  "py/cafe/menu.py": fixture("python-lint/cafe/menu.py"),
  "py/cafe/orders.py": fixture("python-lint/cafe/orders.py"),
  "py/warn.py": "import os\n\n\ndef tea(cups: int) -> int:\n    return cups\n",
  "web/src/lint.ts": fixture("langs/lint.ts"),
  "web/src/more.js": 'import { b, a } from "./lint.ts";\nlet unused = 1;\nexport function f(x) {\n  return x == null ? a + b : x;\n}\n',
  "web/src/dup.json": '{ "a": 1, "a": 2 }\n',
  "web/src/warn.js": "let unused = 1;\n",
  "c/compile_flags.txt": "-std=c11\n-Wall\n-Iinclude\n-DCUPS=2\n",
  "c/include/cup.h": "#pragma once\nstruct cup { int size; };\nint pour(struct cup c);\n",
  "c/src/cafe.c":
    '#include "cup.h"\n\nint pour(struct cup c) { return c.size * CUPS; }\n\nint main(void) {\n  struct cup c = { 1 };\n  /* 🍵 */ int bad = c;\n  if (bad = 2) return 1;\n  return pour(c) + missing;\n}\n',
  "c/src/tea.c": '#include <stdio.h>\n\nvoid tea(void) {\n  printf("%d\\n", "two");\n  char *p = 1;\n}\n',
};

type Item = Finding & { workspace: string; server: string; source: string | null };
let repo: TempRepo;
let path: string;
let run: RunResult;
let items: Item[];
const check = (...args: string[]) => runLspmcp(["check", ...args], { cwd: repo.root, path });
const of = (workspace: string) => items.filter((item) => item.workspace === workspace);

beforeAll(async () => {
  requireBinary("clangd");
  requireBinary("clang-14");
  requireCachedTool("basedpyright/node_modules/.bin/basedpyright-langserver");
  repo = tempRepo(FILES);
  path = pathWithLspmcp();
  run = await check("--format", "json");
  items = JSON.parse(run.stdout).items;
}, 300_000);
afterAll(() => repo?.remove());

describe("lspmcp check on basedpyright, Biome and clangd against their own command lines", () => {
  test("all three answer, and the gate fails on their errors: exit 1", () => {
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).summary.runs.map((entry: { server: string; version: string }) => `${entry.server} ${entry.version}`)).toEqual([
      "basedpyright 1.40.1",
      "biome 2.6.8",
      "clangd 14.0.6",
    ]);
  });

  test("basedpyright: its findings are basedpyright --outputjson's exactly", async () => {
    const cli = await pyrightCliFindings(join(repo.root, "py"), requireCachedTool("basedpyright/node_modules/.bin/basedpyright"));
    expect(cli.length).toBeGreaterThan(5);
    expect(findingKeys(of("py"))).toEqual(findingKeys(cli));
  });

  test("Biome: its lint findings are biome lint's exactly; beside them only the assist that sorts imports", async () => {
    const cli = await biomeLintFindings(join(repo.root, "web"));
    expect(cli.code).toBe(1);
    expect(cli.findings.map((finding) => finding.code).sort()).toEqual([
      "lint/correctness/noUnusedVariables",
      "lint/correctness/noUnusedVariables",
      "lint/style/useConst",
      "lint/style/useConst",
      "lint/suspicious/noDebugger",
      "lint/suspicious/noDuplicateObjectKeys",
    ]);
    const web = of("web");
    expect(findingKeys(web.filter((item) => item.code?.startsWith("lint/")))).toEqual(findingKeys(cli.findings));
    // `biome lint` runs no assists; the server reports the import order as information (`biome check` as an error).
    expect(web.filter((item) => !item.code?.startsWith("lint/")).map((item) => `${item.path} ${item.severity} ${item.code}`)).toEqual([
      "src/more.js information assist/source/organizeImports",
    ]);
  });

  test("clangd: its findings are clang -fsyntax-only's with compile_flags.txt, as clangd words them", async () => {
    const cli = await clangFindings(join(repo.root, "c"), ["src/cafe.c", "src/tea.c"]);
    expect(cli.code).toBe(1);
    expect(cli.findings.map((finding) => finding.severity)).toEqual(["error", "warning", "error", "warning", "warning", "warning"]);
    const c = of("c").map((item) => (item.severity === "error" ? { ...item, code: null } : item));
    expect(startKeys(c)).toEqual(startKeys(cli.findings));
  });

  test("a file with warnings only: the gate's exit code is each CLI's at its default threshold", async () => {
    const [biome, clang, basedpyright] = await Promise.all([
      check("web/src/warn.js"),
      check("c/src/tea.c"),
      // basedpyright's CLI fails on warnings too (its failOnWarnings is on by default): --fail-on warning.
      check("--fail-on", "warning", "py/warn.py"),
    ]);
    const cli = [
      exitOf(join(REPO, "node_modules/.bin/biome"), ["lint", "src/warn.js"], join(repo.root, "web")),
      (await clangFindings(join(repo.root, "c"), ["src/tea.c"])).code,
      exitOf(requireCachedTool("basedpyright/node_modules/.bin/basedpyright"), ["warn.py"], join(repo.root, "py")),
    ];
    expect(cli).toEqual([0, 0, 1]);
    expect([biome.code, clang.code, basedpyright.code]).toEqual(cli);
    for (const [result, file] of [
      [biome, "web/src/warn.js"],
      [clang, "c/src/tea.c"],
      [basedpyright, "py/warn.py"],
    ] as const) {
      expect(result.stdout, file).toMatch(new RegExp(`^${file.replaceAll(".", "\\.")}:\\d+:\\d+: warning: `, "m"));
      expect(result.stdout, file).not.toMatch(/: error: /);
    }
  });
});

/** The exit code of a command line run to its end. */
function exitOf(command: string, args: string[], cwd: string): number | null {
  return spawnSync(command, args, { cwd, stdio: "ignore" }).status;
}

describe("the checkout", () => {
  test("is as it was: no .cache/clangd, no .biome or pyright cache", () => {
    expect(repo.status()).toBe("");
  });
});
