// What the pages say of an untrusted configuration's report, held to the commands: `validate`
// exits 0 for it (it is valid) and ends with the trust line and the keys that need the trust;
// `status` ends with the same line. errors.md, configuration.md, trust.md and sharing.md each say
// so in their words; a page that says otherwise (a trust line first, validate exiting 2), or a
// command that stops doing what they say, fails here.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { BRIDGE_MAIN, REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const flat = (page: string) => readFileSync(join(REPO, page), "utf8").replace(/\s+/g, " ");
let checkout: string;
let env: Record<string, string>;
const lspmcp = (...args: string[]) => spawnSync(process.execPath, [BRIDGE_MAIN, ...args], { cwd: checkout, env, encoding: "utf8" });
/** The output's lines without the trailing empty one. */
const lines = (text: string) => text.replace(/\n$/, "").split("\n");

beforeAll(() => {
  checkout = tempDir("lspmcp-trust-report-");
  const runtime = join(tempDir("lspmcp-trust-report-runtime-"), "run");
  mkdirSync(runtime, { mode: 0o700 });
  env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/root",
    XDG_STATE_HOME: tempDir("lspmcp-trust-report-state-"),
    XDG_RUNTIME_DIR: runtime,
  };
  execFileSync("git", ["init", "-q"], { cwd: checkout });
  writeFileSync(
    join(checkout, "bridge.toml"),
    '[[server]]\nname = "own"\ncommand = "/bin/cat"\nversion = "1"\nlanguages = [{ id = "x", extensions = [".x"] }]\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["own"]\n',
  );
});

describe("an untrusted configuration's report", () => {
  test("validate exits 0 and ends with the trust line, then the keys that need the trust, as the pages say", () => {
    const run = lspmcp("validate");
    expect(run.status, run.stderr).toBe(0);
    const out = lines(run.stdout);
    const trust = out.findIndex((line) => line.startsWith("trust: NOT trusted"));
    expect(trust, run.stdout).toBeGreaterThan(0);
    expect(out.slice(trust + 1)).toEqual(['  server[0].command = "/bin/cat"']);

    expect(flat("docs/errors.md")).toContain("an untrusted file is valid, so it exits 0 and its last lines say `trust: NOT trusted`");
    expect(flat("docs/configuration.md")).toContain("an untrusted file is still valid (exit 0, `trust: NOT trusted`)");
    expect(flat("docs/trust.md")).toContain("`validate` exits 0 for a valid file and ends with `trust: NOT trusted (…)` and the keys");
  });

  test("status ends with the same line, as the pages say", () => {
    const run = lspmcp("status");
    expect(run.status, run.stderr).toBe(1); // no shared server serves this config
    expect(lines(run.stdout).at(-1), run.stdout).toMatch(/^trust: NOT trusted/);

    expect(flat("docs/trust.md")).toContain("`status` ends with the same line");
    expect(flat("docs/sharing.md")).toContain('Its last line (`"trust"` in JSON) says whether the config may run');
  });
});
