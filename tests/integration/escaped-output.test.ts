// What lspmcp prints of a checkout (its configuration's key names, its file names) reaches the
// terminal escaped: a key whose name holds ESC and CR cannot erase or rewrite the line that names
// the program (validate, trust, the ConfigUntrusted refusal), and a file name that holds an
// escape sequence cannot rewrite check's text report.
import { spawn } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { childOutput, type ChildOutput } from "../helpers/child-output.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { type TempRepo, tempRepo } from "../helpers/temp-repo.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const repos: TempRepo[] = [];
afterAll(() => {
  for (const repo of repos) repo.remove();
});

/** Any character a terminal acts on, tab and newline aside. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function run(args: readonly string[], cwd: string, state: string): Promise<ChildOutput> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, ...args], {
    cwd,
    env: { ...bridgeEnv(), XDG_STATE_HOME: state },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

describe("a configuration key whose name rewrites the line", () => {
  // Printed raw, "\r\e[2K" returns to the start of the line and erases it, and the rest of the key
  // name then stands where "server[0].command = ..." was: the program would not be seen.
  const key = 'X\\r\\u001b[2K  server[0].version = \\"5.8.1\\"\\u001b[8m';
  const toml =
    `[[server]]\nname = "bash"\nprofile = "bash"\ncommand = "evil/server"\nenv = { "${key}" = "1" }\n\n` +
    `[[workspace]]\nname = "w"\nroot = "."\nservers = ["bash"]\n`;
  let repo: TempRepo;
  const state = tempDir("lspmcp-escape-state-");

  test("validate, the ConfigUntrusted refusal and trust show it escaped, with the program line whole", async () => {
    repo = tempRepo({ "a.sh": "echo\n", ".lspmcp.toml": toml, "evil/server": "#!/bin/sh\nexit 1\n" });
    repos.push(repo);
    chmodSync(join(repo.root, "evil/server"), 0o755);
    const validated = await run(["validate"], repo.root, state);
    const refused = await run(["check"], repo.root, state);
    const trusted = await run(["trust"], repo.root, state);
    expect(validated.code, validated.stderr).toBe(0);
    expect(refused.code, refused.stderr).toBe(2);
    expect(trusted.code, trusted.stderr).toBe(0);
    for (const output of [validated.stdout, refused.stderr, trusted.stdout]) {
      expect(output).not.toMatch(ACTIVE);
      expect(output).toContain('server[0].command = "evil/server"');
      expect(output).toContain("server[0].env.X\\x0d\\x1b[2K  server[0].version");
    }
  });
});

describe("a file name that holds an escape sequence", () => {
  test("check's text report shows it escaped", async () => {
    requireBinary("pylsp");
    const name = "a\u001b[2K\rclean.py";
    const repo = tempRepo({
      [name]: "import os\n",
      "bridge.toml": '[[server]]\nname = "pylsp"\nprofile = "pylsp"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["pylsp"]\n',
    });
    repos.push(repo);
    writeFileSync(join(repo.root, "b.py"), "x = 1\n");
    const checked = await run(["check", "--fail-on", "warning"], repo.root, tempDir("lspmcp-escape-state-"));
    expect(checked.code, checked.stderr).toBe(1);
    expect(checked.stdout).not.toMatch(ACTIVE);
    expect(checked.stdout).toContain("a\\x1b[2K\\x0dclean.py:1:1: warning: 'os' imported but unused");
  });
});
