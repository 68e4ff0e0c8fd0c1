import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { configDir, fakeExecutable, pathsOf, problemsOf, serverToml, tempDir, WORKSPACE_OF_ONE, writeFiles } from "./fixture.js";

const WORKSPACE = WORKSPACE_OF_ONE;

describe("each ConfigInvalid case of CONTRACT §3", () => {
  test("a TOML syntax error, with line and column", async () => {
    const problems = await problemsOf(await configDir(`[bridge]\nmax_sessions = 4\nmax_result_bytes = [\n`));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "", line: 4, column: 1 });
    expect(problems[0]?.message).toMatch(/bridge\.toml:4:1: TOML syntax error: /);
  });

  test("a missing config file", async () => {
    const dir = await tempDir();
    const problems = await problemsOf(dir);
    expect(problems[0]?.message).toMatch(/cannot read .*bridge\.toml: ENOENT/);
  });

  test("unknown keys, each at its own path", async () => {
    const toml = `[bridge]\nmax_session = 4\n${serverToml("one")}colour = "red"\nlanguages = [{ id = "x", extensions = [".x"], glob = "*" }]\n${WORKSPACE}`;
    // A duplicate key is a TOML error, so the second languages goes in a fresh file.
    const dir = await configDir(toml.replace(/languages = \[\{ id = "one".*\n/, ""));
    expect(await problemsOf(dir)).toEqual([
      { path: "bridge.max_session", message: "unknown key" },
      { path: "server[0].colour", message: "unknown key" },
      { path: "server[0].languages[0].glob", message: "unknown key" },
    ]);
  });

  test("wrong types and out-of-range values", async () => {
    const toml = `[bridge]\nmax_sessions = 0\nmax_result_bytes = 1.5\nrequest_timeout_ms = "30s"\n${serverToml("one")}args = "--stdio"\nenv = { A = 1 }\n${WORKSPACE}`;
    const problems = await problemsOf(await configDir(toml));
    expect(pathsOf(problems)).toEqual(["bridge.max_result_bytes", "bridge.max_sessions", "bridge.request_timeout_ms", "server[0].args", "server[0].env.A"]);
    expect(problems[1]?.message).toMatch(/>0/);
  });

  test("memory cap and idle stop: negative, fractional or textual values, each at its key path", async () => {
    const toml = `[bridge]\nidle_stop_s = -1\n${serverToml("one")}max_rss_mb = "4 GB"\n${WORKSPACE}`;
    const problems = await problemsOf(await configDir(toml));
    expect(pathsOf(problems)).toEqual(["bridge.idle_stop_s", "server[0].max_rss_mb"]);
    expect(problems[0]?.message).toMatch(/>=0/);
    expect(problems[1]?.message).toMatch(/number/);
    const fractional = await problemsOf(await configDir(`[bridge]\nidle_stop_s = 1.5\n${serverToml("one")}max_rss_mb = -512\n${WORKSPACE}`));
    expect(pathsOf(fractional)).toEqual(["bridge.idle_stop_s", "server[0].max_rss_mb"]);
    expect(pathsOf(await problemsOf(await configDir(`${serverToml("one")}max_rss_mb = 0.5\n${WORKSPACE}`)))).toEqual(["server[0].max_rss_mb"]);
  });

  test("missing version", async () => {
    const toml = serverToml("one").replace('version = "1.0.0"\n', "") + WORKSPACE;
    expect(await problemsOf(await configDir(toml))).toEqual([{ path: "server[0].version", message: "required" }]);
  });

  test("missing required keys of a table", async () => {
    const toml = `[[server]]\ncommand = "bin/ls1"\nversion = "1"\nlanguages = [{ extensions = [".x"] }]\n[[workspace]]\nname = "ws"\nservers = ["x"]\n`;
    expect(await problemsOf(await configDir(toml))).toEqual([
      { path: "server[0].languages[0].id", message: "required" },
      { path: "server[0].name", message: "required" },
      { path: "workspace[0].root", message: "required" },
      { path: "workspace[0].servers[0]", message: 'unknown server "x"' },
    ]);
  });

  test("command missing, not executable, or a directory; version_command[0] missing", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/plain", 0o644);
    await mkdir(join(dir, "bin/folder"));
    const server = (name: string, command: string, extra = "") =>
      `[[server]]\nname = "${name}"\ncommand = "${command}"\nversion = "1"\nlanguages = [{ id = "${name}", extensions = [".${name}"] }]\n${extra}`;
    await writeFiles(dir, {
      "bridge.toml": [
        server("a", "bin/none"),
        server("b", "bin/plain"),
        server("c", "bin/folder"),
        server("d", "/bin/sh", 'version_command = ["tools/none", "--version"]\n'),
        `[[workspace]]\nname = "ws"\nroot = "."\nservers = ["a", "b", "c", "d"]\n`,
      ].join(""),
    });
    expect(await problemsOf(dir)).toEqual([
      { path: "server[0].command", message: `executable not found: ${join(dir, "bin/none")}` },
      { path: "server[1].command", message: `not executable: ${join(dir, "bin/plain")}` },
      { path: "server[2].command", message: `not a file: ${join(dir, "bin/folder")}` },
      { path: "server[3].version_command[0]", message: `executable not found: ${join(dir, "tools/none")}` },
    ]);
  });

  test("duplicate server and workspace names", async () => {
    const toml = `${serverToml("one")}${serverToml("one", [".y"])}${WORKSPACE}${WORKSPACE}`;
    expect(await problemsOf(await configDir(toml))).toEqual([
      { path: "server[1].name", message: 'duplicate server name "one" (first used at server[0])' },
      { path: "workspace[1].name", message: 'duplicate workspace name "ws" (first used at workspace[0])' },
    ]);
  });

  test("an extension claimed by two servers of one workspace without a default_server entry", async () => {
    const toml = `${serverToml("a", [".h", ".c"])}${serverToml("b", [".H"])}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["a", "b"]\n`;
    expect(await problemsOf(await configDir(toml))).toEqual([
      { path: 'workspace[0].default_server.".h"', message: '".h" is claimed by "a" and "b"; choose one here' },
    ]);
  });

  test("default_server naming a server outside the workspace, or one that does not claim the extension", async () => {
    const toml = `${serverToml("a", [".h"])}${serverToml("b", [".h"])}${serverToml("c", [".c"])}
[[workspace]]
name = "ws"
root = "."
servers = ["a", "b"]
default_server = { ".h" = "c", ".c" = "a", "d.ts" = "a" }
`;
    expect(await problemsOf(await configDir(toml))).toEqual([
      { path: 'workspace[0].default_server.".c"', message: 'server "a" does not claim ".c"' },
      { path: 'workspace[0].default_server.".h"', message: '"c" is not one of this workspace\'s servers' },
      { path: 'workspace[0].default_server."d.ts"', message: '"d.ts" is not a file extension such as ".ts" nor a claimed file name' },
    ]);
  });

  test("a workspace naming an unknown server, or one twice", async () => {
    const toml = `${serverToml("one")}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one", "ghost", "one"]\n`;
    expect(await problemsOf(await configDir(toml))).toEqual([
      { path: "workspace[0].servers[1]", message: 'unknown server "ghost"' },
      { path: "workspace[0].servers[2]", message: 'server "one" is listed twice' },
    ]);
  });

  test("a workspace root that is missing or not a directory", async () => {
    const dir = await configDir(
      `${serverToml("one")}[[workspace]]\nname = "a"\nroot = "missing"\nservers = ["one"]\n[[workspace]]\nname = "b"\nroot = "bridge.toml"\nservers = ["one"]\n`,
    );
    expect(await problemsOf(dir)).toEqual([
      { path: "workspace[0].root", message: `directory does not exist: ${join(dir, "missing")}` },
      { path: "workspace[1].root", message: `not a directory: ${join(dir, "bridge.toml")}` },
    ]);
  });

  test("an unknown profile lists the known ones", async () => {
    const toml = `[[server]]\nname = "one"\nprofile = "nothere"\n${WORKSPACE}`;
    const [problem, ...rest] = await problemsOf(await configDir(toml));
    expect(rest).toEqual([]);
    expect(problem?.path).toBe("server[0].profile");
    expect(problem?.message).toMatch(/^unknown profile "nothere" \(known: .*\bbash\b.*\bclangd\b.*\bpyright\b.*\btypescript\b/);
  });

  test("no servers or workspaces at all, or a [server] table instead of [[server]]", async () => {
    expect(await problemsOf(await configDir(""))).toEqual([
      { path: "server", message: "at least one [[server]] table is required" },
      { path: "workspace", message: "at least one [[workspace]] table is required" },
    ]);
    const single = await problemsOf(await configDir(`[server]\nname = "one"\n${WORKSPACE}`));
    expect(single[0]?.message).toMatch(/^expected \[\[server\]\] tables/);
  });

  test("an invalid server name is reported once, not again where a workspace uses it", async () => {
    const toml = `${serverToml("one").replace('name = "one"', 'name = "my server"')}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["my server"]\n`;
    expect(pathsOf(await problemsOf(await configDir(toml)))).toEqual(["server[0].name"]);
  });

  test("extensions that cannot be extensions, or one claimed twice by one server", async () => {
    const toml = `[[server]]\nname = "one"\ncommand = "bin/ls1"\nversion = "1"\nlanguages = [{ id = "a", extensions = [".a", "x/y"] }, { id = "b", extensions = [".A"] }]\n${WORKSPACE}`;
    expect(await problemsOf(await configDir(toml))).toEqual([
      { path: "server[0].languages[0].extensions[1]", message: '"x/y" is not a file extension such as ".ts"' },
      { path: "server[0].languages[1].extensions[0]", message: '".a" is already claimed by language "a"' },
    ]);
  });

  test("exclude patterns that leave the root", async () => {
    const toml = `${serverToml("one")}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\nexclude = ["ok/**", "../up", "/abs"]\n`;
    expect(pathsOf(await problemsOf(await configDir(toml)))).toEqual(["workspace[0].exclude[1]", "workspace[0].exclude[2]"]);
  });
});

describe("every problem at once", () => {
  test("one file with a dozen problems reports each at its key path, sorted", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await writeFile(join(dir, "bin/noexec"), "#!/bin/sh\n");
    await chmod(join(dir, "bin/noexec"), 0o644);
    await writeFiles(dir, {
      "bridge.toml": `
[bridge]
max_sessions = -1
verbose = true

[[server]]
name = "ts"
profile = "typescript"
args = 3
typo = 1

[[server]]
name = "ts"
command = "bin/noexec"
languages = [{ id = "c", extensions = [".h"] }]

[[server]]
name = "c2"
command = "bin/ls1"
version = "1"
languages = [{ id = "c", extensions = [".h"] }]

[[server]]
name = "ghostly"
profile = "nothere"

[[server]]
name = "c3"
command = "bin/ls1"
version = "1"
languages = [{ id = "c", extensions = [".H"] }]

[[workspace]]
name = "app"
root = "missing"
servers = ["ts", "c2", "c3", "nobody"]

[[workspace]]
name = "app"
root = "."
servers = ["c2"]
default_server = { ".h" = "ts" }
`,
    });
    const problems = await problemsOf(dir);
    expect(pathsOf(problems)).toEqual([
      "bridge.max_sessions",
      "bridge.verbose",
      "server[0].args",
      "server[0].typo",
      "server[1].command",
      "server[1].name",
      "server[1].version",
      "server[3].profile",
      'workspace[0].default_server.".h"',
      "workspace[0].root",
      "workspace[0].servers[3]",
      'workspace[1].default_server.".h"',
      "workspace[1].name",
    ]);
    // The error's message carries the same list, for a log line.
    const error = await loadConfig(join(dir, "bridge.toml")).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).message).toContain("(13 problems)");
    expect((error as BridgeError).message).toContain('\n  workspace[0].servers[3]: unknown server "nobody"');
  });
});
