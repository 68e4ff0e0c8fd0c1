import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { fakeExecutable, problemsOf, serverToml, tempDir, writeFiles } from "./fixture.js";

describe("loadConfig on a valid file", () => {
  test("applies defaults, resolves paths against the config folder, normalizes extensions", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await fakeExecutable(dir, "tools/version");
    await mkdir(join(dir, "src"));
    await writeFiles(dir, {
      "bridge.toml": `
[[server]]
name = "one"
command = "bin/ls1"
version = "1.0.0"
version_command = ["./tools/version", "--long"]
languages = [{ id = "one", extensions = ["ONE", ".Two"] }]

[[workspace]]
name = "ws"
root = "src"
servers = ["one"]
`,
    });
    // The test runs with cwd = the repository, so these paths can only come from the file's folder.
    const config = await loadConfig(join(dir, "bridge.toml"));
    expect(config.configPath).toBe(join(dir, "bridge.toml"));
    expect(config.bridge).toEqual({
      max_sessions: 4,
      max_result_bytes: 32768,
      max_preview_files: 64,
      request_timeout_ms: 30000,
      start_timeout_ms: 120000,
      max_open_documents: 256,
      idle_stop_s: 0,
    });
    expect(config.servers).toEqual([
      {
        name: "one",
        command: join(dir, "bin/ls1"),
        args: [],
        version: "1.0.0",
        version_command: [join(dir, "tools/version"), "--long"],
        languages: [{ id: "one", extensions: [".one", ".two"], filenames: [] }],
        position_encoding: null,
        adapter: "standard",
        adapter_chosen_by: { by: "standard" },
        projects: null,
        inherit_env: [],
        env: {},
        initialization_options: {},
        settings: {},
        max_rss_mb: null,
        checkout_code: [],
        settle_quiet_ms: 3000,
      },
    ]);
    expect(config.workspaces).toEqual([{ name: "ws", root: join(dir, "src"), servers: ["one"], default_server: {}, diagnostics_server: {}, exclude: [] }]);
  });

  test("keeps bridge settings, env, options and settings as written", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await writeFiles(dir, {
      "bridge.toml": `
[bridge]
max_sessions = 2
max_result_bytes = 1000
request_timeout_ms = 5
idle_stop_s = 600

${serverToml("one")}args = ["--stdio"]
max_rss_mb = 2048
env = { A = "1" }
initialization_options = { nested = { deep = [1, 2] } }
settings = { python = { analysis = { typeCheckingMode = "strict" } } }

[[workspace]]
name = "ws"
root = "."
servers = ["one"]
exclude = ["build/**"]
`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"));
    expect(config.bridge).toEqual({
      max_sessions: 2,
      max_result_bytes: 1000,
      max_preview_files: 64,
      request_timeout_ms: 5,
      start_timeout_ms: 120000,
      max_open_documents: 256,
      idle_stop_s: 600,
    });
    expect(config.servers[0]).toMatchObject({
      args: ["--stdio"],
      max_rss_mb: 2048,
      env: { A: "1" },
      initialization_options: { nested: { deep: [1, 2] } },
      settings: { python: { analysis: { typeCheckingMode: "strict" } } },
    });
    expect(config.workspaces[0]?.exclude).toEqual(["build/**"]);
  });

  test("resolves the workspace root through symlinks", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await mkdir(join(dir, "real"));
    await symlink(join(dir, "real"), join(dir, "link"));
    await writeFiles(dir, { "bridge.toml": `${serverToml("one")}\n[[workspace]]\nname = "ws"\nroot = "link"\nservers = ["one"]\n` });
    const config = await loadConfig(join(dir, "bridge.toml"));
    expect(config.workspaces[0]?.root).toBe(join(dir, "real"));
  });

  test("looks a bare command name up on PATH, skipping folders where it is not executable", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "first/mylsp", 0o644);
    const found = await fakeExecutable(dir, "second/mylsp");
    await writeFiles(dir, {
      "bridge.toml": `[[server]]\nname = "one"\ncommand = "mylsp"\nversion = "1"\nversion_command = ["mylsp", "-v"]\nlanguages = [{ id = "x", extensions = [".x"] }]\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    const searchPath = ["relative/dir", "", join(dir, "missing"), join(dir, "first"), join(dir, "second")].join(":");
    const config = await loadConfig(join(dir, "bridge.toml"), { searchPath });
    expect(config.servers[0]?.command).toBe(found);
    expect(config.servers[0]?.version_command).toEqual([found, "-v"]);
  });

  test("reports a bare command name missing from PATH", async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      "bridge.toml": `[[server]]\nname = "one"\ncommand = "mylsp"\nversion = "1"\nlanguages = [{ id = "x", extensions = [".x"] }]\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`,
    });
    expect(await problemsOf(dir, { searchPath: join(dir, "nowhere") })).toEqual([{ path: "server[0].command", message: '"mylsp" not found on PATH' }]);
  });

  test("routes a contested extension through default_server, normalizing its key", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await writeFiles(dir, {
      "bridge.toml": `${serverToml("a", [".h", ".c"])}${serverToml("b", [".H", ".cc"])}
[[workspace]]
name = "ws"
root = "."
servers = ["a", "b"]
default_server = { "H" = "b" }
`,
    });
    const config = await loadConfig(join(dir, "bridge.toml"));
    expect(config.workspaces[0]?.default_server).toEqual({ ".h": "b" });
  });
});
