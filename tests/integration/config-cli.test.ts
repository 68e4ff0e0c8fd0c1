// The command line with no --config (CONTRACT §2): init, validate, check and serve in a temp repo.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { BROKEN_PY, BROKEN_TS, tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

function repoWith(files: Record<string, string>): TempRepo {
  const repo = tempRepo(files);
  repos.push(repo);
  return repo;
}

const run = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BRIDGE_MAIN, ...args], {
    cwd,
    encoding: "utf8",
    input: "",
    env: { ...bridgeEnv(), ...env },
  });

describe("lspmcp init", () => {
  test("writes a commented bridge.toml that validates, and refuses a second time leaving the file byte-identical", () => {
    const repo = repoWith({ "src/a.ts": BROKEN_TS, "tools/b.py": BROKEN_PY });
    const cwd = join(repo.root, "src");
    const first = run(cwd, ["init"]);
    expect(first.status).toBe(0);
    const written = readFileSync(join(cwd, "bridge.toml"));
    const text = written.toString("utf8");
    expect(text).toMatch(/^#:schema \/.*\/config\/bridge\.schema\.json\n/);
    // The pins are spelled out, and the workspace is the repo, relative to the file.
    expect(text).toContain('version = "7.0.2"');
    expect(text).toContain('version = "1.1.414"');
    expect(text).toContain('root = ".."');

    const validate = run(cwd, ["validate"]);
    expect(validate.status).toBe(0);
    expect(validate.stdout).toContain(`OK ${join(cwd, "bridge.toml")}: 2 servers (typescript, pyright)`);

    const second = run(cwd, ["init"]);
    expect(second.status).toBe(2);
    expect(second.stderr).toContain("exists");
    expect(readFileSync(join(cwd, "bridge.toml")).equals(written)).toBe(true);
  });

  test("the file names the servers it left out, commented, with how to install them", () => {
    const repo = repoWith({ "a.ts": BROKEN_TS, "m.c": "int main(void) { return 0; }\n" });
    // PATH without clangd: the bridge's own node is run by absolute path.
    const result = run(repo.root, ["init"], { PATH: "/nonexistent" });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("left out clangd");
    const text = readFileSync(join(repo.root, "bridge.toml"), "utf8");
    expect(text).toContain("# clangd is left out");
    expect(text).toContain("apt-get install clangd");
    expect(run(repo.root, ["validate", "--config", "bridge.toml"]).status).toBe(0);
  });
});

describe("lspmcp init where no shipped profile serves the folder", () => {
  test("writes a skeleton with a [[server]] to fill in, which validate refuses until it is, and accepts once it is", () => {
    const repo = repoWith({ "lib/core.zig": "pub fn main() void {}\n" });
    const result = run(repo.root, ["init"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("a skeleton");
    const text = readFileSync(join(repo.root, "bridge.toml"), "utf8");
    expect(text).toMatch(/^#:schema \/.*\/config\/bridge\.schema\.json\n/);
    expect(text).toContain('[[server]]\nname = "my-server"\ncommand = "FILL-IN"');
    expect(text).toContain('servers = ["my-server"]');
    const refused = run(repo.root, ["validate"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('server[0].command: "FILL-IN" not found on PATH');
    // Filled in as its comments say: a program on PATH, its pin and its language.
    writeFileSync(
      join(repo.root, "bridge.toml"),
      text
        .replace('command = "FILL-IN"', 'command = "sh"')
        .replace('version = "FILL-IN"', 'version = "1.0"')
        .replace('id = "FILL-IN", extensions = [".FILL-IN"]', 'id = "zig", extensions = [".zig"]'),
    );
    const filled = run(repo.root, ["validate"]);
    expect(filled.stdout).toContain("1 server (my-server)");
    expect(filled.status).toBe(0);
  });

  test("servers install --for a repository with no shipped language says there is nothing to install, and why", () => {
    const repo = repoWith({ "notes.txt": "x\n" });
    const result = run(repo.root, ["servers", "install", "--for", "."]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      `servers of the embedded default for ${repo.root}: none, nothing to install: no file of a shipped profile's language is in it`,
    );
  });
});

describe("validate, check and serve without --config", () => {
  test("validate names the embedded default and what it chose", () => {
    const repo = repoWith({ "a.ts": BROKEN_TS });
    const result = run(repo.root, ["validate"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      `OK embedded default for ${repo.root}: 1 server (typescript), 1 workspace (${repo.root.split("/").at(-1)})\n` +
        'rule of typescript: typescript: one complete pull per file (profile "typescript")\n' +
        "compilers: typescript answers with TypeScript 7.0.2 (pinned)\n" +
        "trust: not needed (the embedded default runs only the shipped profiles)\n",
    );
  });

  test("check exits 1 on the repo's findings, and stderr says which config was used", () => {
    // A cold tsserver's start and project load do not count against the 30 s request deadline
    // (start_timeout_ms bounds them), so a busy machine cannot turn this into a Timeout.
    const repo = repoWith({ "src/a.ts": BROKEN_TS, "docs/readme.md": "x\n" });
    const result = run(join(repo.root, "src"), ["check", "--format", "json", "--fail-on", "warning"]);
    expect(result.stderr).toContain(`config: embedded default for ${repo.root}`);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.items.map((item: { path: string; code: string }) => `${item.path} ${item.code}`)).toEqual(["src/a.ts 2322"]);
    expect(report.summary.failing).toBe(1);
    expect(repo.status()).toBe("");
  });

  test("a discovered bridge.toml is named on stderr", () => {
    const repo = repoWith({
      "a.ts": BROKEN_TS,
      "bridge.toml": '[[server]]\nname = "ts"\nprofile = "typescript"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["ts"]\n',
    });
    const result = run(repo.root, ["status"]);
    expect(result.stderr).toContain(`config: ${join(repo.root, "bridge.toml")}`);
    expect(result.status).toBe(1);
  });

  test("serve in a folder with nothing to serve exits 2 and says how to start", () => {
    const repo = repoWith({ "notes.txt": "x\n" });
    const result = run(repo.root, ["serve"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("lspmcp init");
    expect(result.stdout).toBe("");
  });
});
