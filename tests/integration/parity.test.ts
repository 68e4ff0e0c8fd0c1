import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { childOutput } from "../helpers/child-output.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { BRIDGE_MAIN, REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

// `lspmcp parity` against a server's own CLI. The fake server (a real process speaking JSON-RPC)
// warns at every line holding `bad`, as the bad-words CLI does; told to, it drops one of them,
// which a real server cannot be made to do on demand. pyright's own CLI is the real case.
const CLI = `node ${join(REPO, "tests/fixtures/parity/bad-words-cli.mjs")}`;
const FILES = { "a.fake": "ok\na bad line\nanother bad one\n", "b.fake": "bad\n" };

function parity(args: readonly string[], cwd: string) {
  return childOutput(spawn(process.execPath, [BRIDGE_MAIN, "parity", ...args], { cwd, env: bridgeEnv(), stdio: ["ignore", "pipe", "pipe"] }));
}

function fake(flags: readonly string[] = []) {
  return fakeWorkspace([{ name: "fake", extension: ".fake", flags }], "request_timeout_ms = 10000", FILES);
}

describe("lspmcp parity with a fake server and its CLI", () => {
  test("equal answers, in parity's JSON shape and in SARIF: exit 0", async () => {
    const { root, config } = fake();
    for (const [format, cli] of [
      ["json", CLI],
      ["sarif", `${CLI} --sarif`],
    ] as const) {
      const run = await parity(["--config", config, "--cli", cli, "--format", format, "--runs", "2", "--edit", "a.fake"], root);
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("cli, cold: 3 findings\n");
      expect(run.stdout).toContain("run 2, after the edit: equal (3 findings)\n");
      expect(run.stdout).toContain("every answer equals the CLI (4 of 4)\n");
      expect(run.code).toBe(0);
    }
  }, 120_000);

  test("a server that drops a finding: every run prints it, exit 1", async () => {
    const { root, config } = fake(["--drop-last-bad", "always"]);
    const run = await parity(["--config", config, "--cli", CLI, "--format", "json", "--runs", "3"], root);
    expect(run.code).toBe(1);
    const dropped = run.stdout.split("\n").filter((line) => line.startsWith("  dropped "));
    // The last `bad` line of each file.
    expect(dropped).toEqual(Array(3).fill(["  dropped a.fake:3:9: warning [7] bad word", "  dropped b.fake:1:1: warning [7] bad word"]).flat());
    expect(run.stdout).toContain("run 1, cold: 2 dropped, 0 extra (the CLI has 3)\n");
    expect(run.stdout).toContain("3 of 3 answers differ from the CLI\n");
  }, 120_000);

  test("a server that drops a finding only after an edit: the cold runs are equal, the edited ones not; the file is put back", async () => {
    const { root, config } = fake(["--drop-last-bad", "after-change"]);
    const before = readFileSync(join(root, "a.fake"));
    const run = await parity(["--config", config, "--cli", CLI, "--format", "json", "--runs", "2", "--edit", "a.fake"], root);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("run 1, cold: equal (3 findings)\n");
    expect(run.stdout).toContain("run 1, after the edit: 1 dropped, 0 extra (the CLI has 3)\n  dropped a.fake:3:9: warning [7] bad word\n");
    expect(run.stdout).toContain("2 of 4 answers differ from the CLI\n");
    expect(readFileSync(join(root, "a.fake"))).toEqual(before);
  }, 120_000);

  test("findings the CLI reports beyond the paths given are not compared", async () => {
    const { root, config } = fake();
    const run = await parity(["--config", config, "--cli", CLI, "--format", "json", "--runs", "1", "b.fake"], root);
    expect(run.stdout).toContain("cli, cold: 1 finding (2 about other files, not compared)\n");
    expect(run.code).toBe(0);
  }, 120_000);

  test("usage: no --cli, an unknown server, output that is not the format: exit 2 with the reason", async () => {
    const { root, config } = fake();
    const cases: [string[], string][] = [
      [["--config", config, "--format", "json"], "parity needs --cli"],
      [["--config", config, "--cli", CLI, "--format", "json", "--server", "nope"], "--server nope: no such server"],
      [["--config", config, "--cli", 'echo \'{"findings": [{"path": "a.fake"}]}\'', "--format", "json"], "not parity's JSON shape"],
      [["--config", config, "--cli", CLI, "--format", "sarif"], "not SARIF 2.1.0"],
    ];
    for (const [args, reason] of cases) {
      const run = await parity(args, root);
      expect(run.stderr).toContain(reason);
      expect(run.code).toBe(2);
    }
  }, 120_000);
});

describe("lspmcp parity with pyright and its own CLI", () => {
  test("pyright 1.1.414 through lspmcp equals `pyright --outputjson`, cold and after an edit", async () => {
    const root = tempDir();
    writeFileSync(join(root, "a.py"), 'import os\n\ndef f(x: int) -> str:\n    return x\n\nf("a")\nprint(undefined_name)\n');
    writeFileSync(join(root, "b.py"), "class C:\n    pass\n\nC().missing\n");
    const config = writeConfig(
      `[[server]]\nname = "pyright"\nprofile = "pyright"\n[[workspace]]\nname = "py"\nroot = ${JSON.stringify(root)}\nservers = ["pyright"]\n`,
    );
    const cli = `${join(REPO, "node_modules/.bin/pyright")} --outputjson | node ${join(REPO, "tests/fixtures/parity/pyright-json.mjs")}`;
    // Editor-only hints (unused names) are the server's and never the CLI's.
    const run = await parity(["--config", config, "--cli", cli, "--format", "json", "--runs", "2", "--edit", "a.py", "--min-severity", "information"], root);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("cli, cold: 4 findings\n");
    expect(run.stdout).toContain("every answer equals the CLI (4 of 4)\n");
    expect(run.code).toBe(0);
  }, 300_000);
});
