// What lspmcp runs on its own account (version checks, toolchain checks, install steps, git) loads
// nothing of the checkout it works on (docs/trust.md): a checkout that brings Python modules
// named like the ones those commands import, a program first on PATH, and a `.git/config` whose
// fsmonitor and filter driver are its own scripts is worked on by `validate`, `servers install
// --for .`, `check` and `check --since`, and none of its programs leaves its mark.
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { missingToolchain } from "../../src/install/toolchain.js";
import { runStep } from "../../src/install/run-step.js";
import { offPin } from "../../src/config/system-version.js";
import { loadProfile } from "../../src/config/profiles.js";
import { childOutput, type ChildOutput } from "../helpers/child-output.js";
import { BRIDGE_MAIN, REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { type TempRepo, tempRepo } from "../helpers/temp-repo.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const marks = tempDir("lspmcp-own-marks-");
const state = tempDir("lspmcp-own-state-");
const repos: TempRepo[] = [];

/** Every mark left so far, by the name of the program that left it. */
function marked(): string[] {
  return readdirSync(marks).sort();
}

/** A Python module that leaves its mark when imported. */
const module = (name: string) => `open(${JSON.stringify(join(marks, name))}, "w").close()\n`;

/** A shell script that leaves its mark, then does `then`. */
function script(path: string, name: string, then: string): void {
  writeFileSync(path, `#!/bin/sh\ntouch ${JSON.stringify(join(marks, name))}\n${then}\n`);
  chmodSync(path, 0o755);
}

/**
 * A checkout armed against lspmcp's own commands: `ensurepip.py`, `venv.py`, `pyflakes.py` and
 * `pip.py` at its top; `bin/python3` and `bin/git` for a PATH that holds its `bin`; and in its
 * `.git/config` an fsmonitor and a required filter driver (for `*.py`, `.gitattributes`) of its
 * own. `files` are the rest of it.
 */
function armedCheckout(files: Record<string, string>): TempRepo {
  const repo = tempRepo({
    ...files,
    "ensurepip.py": module("ensurepip"),
    "venv.py": module("venv"),
    "pyflakes.py": module("pyflakes"),
    "pip.py": module("pip"),
    ".gitattributes": "*.py filter=evil\n",
  });
  repos.push(repo);
  mkdirSync(join(repo.root, "bin"));
  script(join(repo.root, "bin/python3"), "bin-python3", 'exec /usr/bin/python3 "$@"');
  script(join(repo.root, "bin/git"), "bin-git", 'exec /usr/bin/git "$@"');
  script(join(repo.root, ".git/fsmonitor"), "fsmonitor", "exit 1");
  script(join(repo.root, ".git/filter"), "filter", "exec cat");
  appendFileSync(
    join(repo.root, ".git/config"),
    `[core]\n\tfsmonitor = ${join(repo.root, ".git/fsmonitor")}\n` +
      `[filter "evil"]\n\tclean = ${join(repo.root, ".git/filter")}\n\tsmudge = ${join(repo.root, ".git/filter")}\n\trequired = true\n`,
  );
  return repo;
}

/** The PATH of a user whose shell puts the checkout's `bin` first (direnv, an activated environment). */
const pathThrough = (repo: TempRepo) => `${join(repo.root, "bin")}:${process.env.PATH ?? ""}`;

function run(args: readonly string[], repo: TempRepo, env: Record<string, string> = {}): Promise<ChildOutput> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, ...args], {
    cwd: repo.root,
    env: { ...bridgeEnv(), PATH: pathThrough(repo), XDG_STATE_HOME: state, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

beforeAll(() => requireBinary("pylsp"));
afterEach(() => {
  for (const name of marked()) execFileSync("rm", ["-f", join(marks, name)]);
});
afterAll(() => {
  for (const repo of repos) repo.remove();
});

describe("the armed checkout's programs do run when it is the current folder (the attack is real)", () => {
  test("python3 -c imports its modules, and git ls-files runs its fsmonitor", () => {
    const repo = armedCheckout({ "a.py": "x = 1\n" });
    execFileSync("python3", ["-c", "import ensurepip, venv"], { cwd: repo.root });
    execFileSync("git", ["ls-files"], { cwd: repo.root });
    expect(marked()).toEqual(["ensurepip", "fsmonitor", "venv"]);
  });
});

describe("lspmcp's commands in the armed checkout run none of it", () => {
  test("validate (the embedded default: git ls-files, the toolchain's version checks)", async () => {
    const repo = armedCheckout({ "a.py": "x = 1\n", "ruff.toml": "" });
    const out = await run(["validate"], repo);
    expect(out.code, out.stderr).toBe(0);
    expect(marked()).toEqual([]);
  });

  test("servers install --for . (python3 checked for ensurepip and venv, then python3 -m venv and pip)", async () => {
    const repo = armedCheckout({ "a.py": "x = 1\n", "ruff.toml": "" });
    // An empty tool cache, and a package index that refuses at once: ruff's install runs its
    // venv step, then its pip step fails without reaching the network.
    const out = await run(["servers", "install", "--for", "."], repo, {
      XDG_CACHE_HOME: tempDir("lspmcp-own-cache-"),
      PIP_INDEX_URL: "http://127.0.0.1:9/simple",
      PIP_RETRIES: "0",
      PIP_TIMEOUT: "1",
    });
    expect(out.stderr).toMatch(/ruff [\d.]+: install failed: pip install ruff==/);
    expect(out.code, out.stderr).toBe(1);
    expect(marked()).toEqual([]);
  });

  test("check and check --since HEAD with pylsp (its version check imports pyflakes; the snapshot is checked out)", async () => {
    const repo = armedCheckout({
      "a.py": "import os\n",
      "bridge.toml": '[[server]]\nname = "pylsp"\nprofile = "pylsp"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["pylsp"]\n',
    });
    const now = await run(["check", "--format", "json", "--fail-on", "warning", "a.py"], repo);
    expect(now.stdout).toContain("imported but unused");
    expect(now.code, now.stderr).toBe(1);
    writeFileSync(join(repo.root, "a.py"), "import os\nimport sys\n");
    const since = await run(["check", "--format", "json", "--fail-on", "warning", "--since", "HEAD", "a.py"], repo);
    expect(since.stdout).toContain("'sys' imported but unused");
    expect(since.code, since.stderr).toBe(1);
    expect(marked()).toEqual([]);
  });
});

describe("the helpers themselves, with the armed checkout as lspmcp's current folder", () => {
  let repo: TempRepo;
  const cwd = process.cwd();
  const path = process.env.PATH;
  beforeAll(() => {
    repo = armedCheckout({ "a.py": "x = 1\n" });
    process.chdir(repo.root);
    process.env.PATH = pathThrough(repo);
  });
  afterAll(() => {
    process.chdir(cwd);
    process.env.PATH = path;
  });

  test("the toolchain check finds neither the checkout's python3 on PATH nor its modules", async () => {
    expect(await missingToolchain({ from: "pypi", package: "ruff" }, pathThrough(repo))).toBeNull();
    expect(marked()).toEqual([]);
  });

  test("a profile's version check (pylsp's imports pyflakes)", async () => {
    const loaded = await loadProfile(REPO, "pylsp");
    if (!loaded.ok) throw new Error("no pylsp profile");
    await offPin(loaded.profile, REPO, pathThrough(repo));
    expect(marked()).toEqual([]);
  });

  test("an install's python3 -m venv", async () => {
    const stage = join(tempDir("lspmcp-own-venv-"), "venv");
    const result = await runStep(
      { label: "python3 -m venv", argv: ["python3", "-m", "venv", "--without-pip", stage], env: {}, ownProgress: false },
      new AbortController().signal,
      false,
    );
    expect(result).toEqual({ ok: true });
    expect(existsSync(join(stage, "bin/python"))).toBe(true);
    expect(marked()).toEqual([]);
  });
});
