import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { packageRoot } from "../../../src/config/package-root.js";
import { loadProfile, profileNames } from "../../../src/config/profiles.js";
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
      adapter: "standard",
      adapter_chosen_by: { by: "profile", profile: "p" },
      projects: null,
      inherit_env: [],
      env: {},
      initialization_options: {},
      settings: { a: 1 },
      max_rss_mb: null,
      checkout_code: [],
      settle_quiet_ms: 3000,
    });
  });

  test("keys set in the server replace the profile's, and resolve against the config folder; its settings are laid over the profile's", async () => {
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
      adapter: "standard",
      projects: null,
    });
    expect(server?.settings).toEqual({ a: 1, b: { c: 2 } });
  });

  test("settings and initialization_options are laid over the profile's table by table: a key the server needs stays", async () => {
    const root = await fakePackage(
      `${PROFILE.replace("settings = { a = 1 }\n", "")}initialization_options = { cache = { directory = "", keep = true }, index = 1 }\nsettings = { css = {}, scss = { lint = { a = 1 } } }\n`,
    );
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "one"\nprofile = "p"\ninitialization_options = { cache = { keep = false }, index = [2] }\nsettings = { css = { validate = true }, scss = { lint = { b = 2 } }, less = {} }\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    const [server] = (await loadConfig(join(dir, "bridge.toml"), { packageRoot: root })).servers;
    expect(server?.initialization_options).toEqual({ cache: { directory: "", keep: false }, index: [2] });
    expect(server?.settings).toEqual({ css: { validate: true }, scss: { lint: { a: 1, b: 2 } }, less: {} });
  });

  test("a server's inherit_env adds to its profile's, where every other key replaces it", async () => {
    const root = await fakePackage(`${PROFILE}inherit_env = ["GOPATH", "GOFLAGS"]\nenv = { GOPROXY = "off" }\n`);
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "one"\nprofile = "p"\ninherit_env = ["GOFLAGS", "GOPRIVATE"]\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    const [server] = (await loadConfig(join(dir, "bridge.toml"), { packageRoot: root })).servers;
    expect(server).toMatchObject({ inherit_env: ["GOPATH", "GOFLAGS", "GOPRIVATE"], env: { GOPROXY: "off" } });
  });

  test("an inherit_env entry that is not a variable name is ConfigInvalid at its key", async () => {
    const root = await fakePackage(PROFILE);
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "one"\nprofile = "p"\ninherit_env = ["GOPATH=/go"]\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    expect((await problemsOf(dir, { packageRoot: root })).map((problem) => problem.path)).toEqual(["server[0].inherit_env[0]"]);
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

  test("the tool cache's servers: a missing one is ConfigInvalid naming its path in the cache; {cache}/ in env is expanded", async () => {
    const cache = await tempDir();
    const previous = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
    try {
      const names = ["gopls", "ruff", "basedpyright", "rust-analyzer"];
      const servers = names.map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`).join("");
      const dir = await writeFiles(await tempDir(), {
        "bridge.toml": `${servers}[[workspace]]\nname = "ws"\nroot = "."\nservers = ${JSON.stringify(names)}\ndefault_server = { ".py" = "basedpyright", ".pyi" = "basedpyright" }\n`,
      });
      // Each names the command that installs it, once: a version command that runs the same missing
      // program is not a second problem.
      const missing = (index: number, key: string, path: string) => ({
        path: `server[${index}].${key}`,
        message: `executable not found: ${join(cache, "lspmcp", path)} (from profile "${names[index]}"; install: lspmcp servers install ${names[index]})`,
      });
      expect(await problemsOf(dir)).toEqual([
        missing(0, "command", "go/bin/gopls"),
        missing(1, "command", "ruff/bin/ruff"),
        missing(2, "command", "basedpyright/node_modules/.bin/basedpyright-langserver"),
        missing(2, "version_command[0]", "basedpyright/node_modules/.bin/basedpyright"),
        missing(3, "command", "rust-analyzer/bin/rust-analyzer"),
      ]);
      // With the executable in place, the rust-analyzer profile's version command names the cache,
      // and its env the workspace's own folder there (expanded at the session's start).
      for (const path of ["rust-analyzer/bin/rust-analyzer"]) await fakeExecutable(join(cache, "lspmcp"), path);
      const only = await writeFiles(await tempDir(), {
        "bridge.toml": `[[server]]\nname = "ra"\nprofile = "rust-analyzer"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["ra"]\n`,
      });
      const config = await loadConfig(join(only, "bridge.toml"));
      expect(config.servers[0]!.env).toMatchObject({ CARGO_TARGET_DIR: "{workspace_cache}/cargo-target" });
      expect(config.servers[0]!.version_command!.slice(1)).toEqual(["install", "--list", "--root", join(cache, "lspmcp/rust-analyzer")]);
      expect(config.servers[0]!.adapter).toBe("rust-analyzer");
    } finally {
      if (previous === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = previous;
    }
  });

  test("the ways a server runs a checkout's code are its profile's: a bridge.toml cannot say it runs less", async () => {
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "g"\nprofile = "graphql"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["g"]\n`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"));
    expect(config.servers[0]!.checkout_code).toEqual([
      expect.objectContaining({ runs: "config-scripts", files: expect.arrayContaining(["graphql.config.js"]) }),
    ]);
    await writeFiles(dir, {
      "bridge.toml": `[[server]]\nname = "g"\nprofile = "graphql"\ncheckout_code = []\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["g"]\n`,
    });
    expect(await problemsOf(dir)).toEqual([{ path: "server[0].checkout_code", message: "unknown key" }]);
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
  const PINS: Record<string, string> = { pyright: "1.1.414", clangd: "14.0.6", bash: "5.8.1" };

  test("resolve to lspmcp's own pinned servers (clangd from PATH), and each version_command prints its pin", async () => {
    const names = Object.keys(PINS);
    const servers = names.map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`).join("");
    const list = names.map((name) => `"${name}"`).join(", ");
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `${servers}[[workspace]]\nname = "ws"\nroot = "."\nservers = [${list}]\n`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"));
    // The scripts the packages declare as those commands (node_modules/.bin holds links to them).
    const modules = join(packageRoot(), "node_modules");
    expect(config.servers.map((server) => server.command)).toEqual([
      join(modules, "pyright/langserver.index.js"),
      expect.stringMatching(/\/clangd$/),
      join(modules, "bash-language-server/out/cli.js"),
    ]);
    for (const server of config.servers) {
      const [command, ...args] = server.version_command ?? [];
      const { stdout } = await run(command as string, args);
      // Whole-token containment, as the pin check of CONTRACT §3 does it.
      expect(stdout.split(/\s+/)).toContain(PINS[server.name]);
      expect(server.version).toBe(PINS[server.name]);
    }
  });

  test("typescript's is the pinned TypeScript 7 package's bin/tsc, whose package.json holds the pin", async () => {
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `[[server]]\nname = "typescript"\nprofile = "typescript"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["typescript"]\n`,
    });
    const [server] = (await loadConfig(join(dir, "bridge.toml"))).servers;
    expect(server?.command).toBe(join(packageRoot(), "node_modules/typescript-7/bin/tsc"));
    expect(server?.adapter).toBe("typescript");
    const manifest = JSON.parse(await readFile(join(packageRoot(), "node_modules/typescript-7/package.json"), "utf8")) as { version: string };
    expect(server?.version).toBe(manifest.version);
  });

  test("every one caps its tree's memory (max_rss_mb, docs/configuration.md), and max_rss_mb = 0 in a server turns the cap off", async () => {
    const root = packageRoot();
    const names = await profileNames(root);
    expect(names.length).toBeGreaterThanOrEqual(17);
    for (const name of names) {
      const loaded = await loadProfile(root, name);
      if (!loaded.ok) throw new Error(loaded.problems.join("; "));
      expect([name, loaded.profile.max_rss_mb]).toEqual([name, expect.any(Number)]);
      expect(loaded.profile.max_rss_mb).toBeGreaterThanOrEqual(1024);
    }
    const pkg = await fakePackage(`${PROFILE}max_rss_mb = 2048\n`);
    const servers = `[[server]]\nname = "capped"\nprofile = "p"\n[[server]]\nname = "uncapped"\nprofile = "p"\nmax_rss_mb = 0\n`;
    const dir = await writeFiles(await tempDir(), {
      "bridge.toml": `${servers}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["capped", "uncapped"]\ndefault_server = { ".p" = "capped" }\n`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"), { packageRoot: pkg });
    expect(config.servers.map((server) => [server.name, server.max_rss_mb])).toEqual([
      ["capped", 2048],
      ["uncapped", null],
    ]);
  });
});
