import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { packageRoot } from "../../../src/config/package-root.js";
import { fakeExecutable, problemsOf, tempDir, writeFiles } from "./fixture.js";

const run = promisify(execFile);

/** A fake lspmcp package root with `servers/p.toml` and its executable `bin/pls`. */
async function fakePackage(profile: string): Promise<string> {
  const root = await tempDir();
  await fakeExecutable(root, "bin/pls");
  return writeFiles(root, { "servers/p.toml": profile });
}

const PROFILE = `
command = "bin/pls"
args = ["--stdio"]
version = "2.0"
version_command = ["bin/pls", "--version"]
languages = [{ id = "p", extensions = [".p"] }]
settings = { a = 1 }
`;

describe("profiles", () => {
  test("a server takes its profile whole, with profile paths resolved against the package root", async () => {
    const root = await fakePackage(PROFILE);
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "one"\nprofile = "p"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"), { packageRoot: root });
    expect(config.servers[0]).toEqual({
      name: "one",
      command: join(root, "bin/pls"),
      args: ["--stdio"],
      version: "2.0",
      version_command: [join(root, "bin/pls"), "--version"],
      languages: [{ id: "p", extensions: [".p"], filenames: [] }],
      position_encoding: null,
      settle_after_progress: false,
      watch_files: "server",
      env: {},
      initialization_options: {},
      settings: { a: 1 },
    });
  });

  test("keys set in the server replace the profile's whole, and resolve against the config folder", async () => {
    const root = await fakePackage(PROFILE);
    const dir = await tempDir();
    await fakeExecutable(dir, "local/ls");
    await writeFiles(dir, {
      "bridge.toml": `
[[server]]
name = "one"
profile = "p"
command = "local/ls"
args = []
settings = { b = { c = 2 } }
languages = [{ id = "q", extensions = [".q"] }]

[[workspace]]
name = "ws"
root = "."
servers = ["one"]
`,
    });
    const [server] = (await loadConfig(join(dir, "bridge.toml"), { packageRoot: root })).servers;
    expect(server).toMatchObject({
      command: join(dir, "local/ls"),
      args: [],
      version: "2.0",
      version_command: [join(root, "bin/pls"), "--version"],
      languages: [{ id: "q", extensions: [".q"], filenames: [] }],
      position_encoding: null,
      settle_after_progress: false,
      watch_files: "server",
      settings: { b: { c: 2 } },
    });
  });

  test("problems in values from a profile say so; required keys missing from both are named", async () => {
    const root = await fakePackage(`command = "bin/gone"\nargs = ["x"]\n`);
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "one"\nprofile = "p"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    expect(await problemsOf(dir, { packageRoot: root })).toEqual([
      { path: "server[0].command", message: `executable not found: ${join(root, "bin/gone")} (from profile "p")` },
      { path: "server[0].languages", message: 'required (neither here nor in profile "p")' },
      { path: "server[0].version", message: 'required (neither here nor in profile "p")' },
    ]);
  });

  test("a broken profile file is reported under server[i].profile, naming the file", async () => {
    const root = await fakePackage(`${PROFILE}name = "p"\nflavour = 1\n`);
    await writeFiles(root, { "servers/q.toml": "command = [\n" });
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "one"\nprofile = "p"\n[[server]]\nname = "two"\nprofile = "q"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one", "two"]\n`,
    });
    const problems = await problemsOf(dir, { packageRoot: root });
    const file = join(root, "servers/p.toml");
    expect(problems).toEqual([
      { path: "server[0].profile", message: `profile ${file}: name: unknown key` },
      { path: "server[0].profile", message: `profile ${file}: flavour: unknown key` },
      { path: "server[1].profile", message: expect.stringMatching(/servers\/q\.toml:2:1: TOML syntax error/) },
    ]);
  });
});

describe("the shipped profiles", () => {
  const PINS: Record<string, string> = { typescript: "5.3.0", pyright: "1.1.414", clangd: "14.0.6", bash: "5.8.1" };

  test("resolve to lspmcp's own pinned servers (clangd from PATH), and each version_command prints its pin", async () => {
    const names = Object.keys(PINS);
    const servers = names.map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`).join("");
    const list = names.map((name) => `"${name}"`).join(", ");
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `${servers}[[workspace]]\nname = "ws"\nroot = "."\nservers = [${list}]\n`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"));
    const bin = join(packageRoot(), "node_modules/.bin");
    expect(config.servers.map((server) => server.command)).toEqual([
      join(bin, "typescript-language-server"),
      join(bin, "pyright-langserver"),
      expect.stringMatching(/\/clangd$/),
      join(bin, "bash-language-server"),
    ]);
    for (const server of config.servers) {
      const [command, ...args] = server.version_command ?? [];
      const { stdout } = await run(command as string, args);
      // Whole-token containment, as the pin check of CONTRACT §3 does it.
      expect(stdout.split(/\s+/)).toContain(PINS[server.name]);
      expect(server.version).toBe(PINS[server.name]);
    }
  });
});
