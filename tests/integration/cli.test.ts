import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";

const run = (...args: string[]) => spawnSync(process.execPath, [BRIDGE_MAIN, ...args], { encoding: "utf8", input: "" });

const INVALID = `
[bridge]
max_sessions = "four"
colour = "blue"

[[server]]
name = "ts"
command = "/nonexistent/typescript-language-server"
languages = [{ id = "typescript", extensions = [".ts"] }]

[[workspace]]
name = "app"
root = "does-not-exist"
servers = ["ts", "ghost"]
`;

describe("the command line", () => {
  test("--version and --help exit 0", () => {
    expect(run("--version")).toMatchObject({ status: 0, stdout: expect.stringMatching(/^lspmcp \d+\.\d+\.\d+\n$/) });
    expect(run("--help")).toMatchObject({ status: 0, stdout: expect.stringContaining("lspmcp check") });
  });

  test("bad usage exits 2 with the usage on stderr", () => {
    const result = run("serve", "--bogus");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--config");
    expect(run("shared-server").status).toBe(2);
    expect(run("init", "--config", "x.toml").status).toBe(2);
    expect(run("validate", "--config", "x.toml", "--bogus").status).toBe(2);
    for (const args of [
      ["serve", "--http", "host:port"],
      ["serve", "--token-file", "t"],
      ["check", "--http", "8765"],
      ["serve", "--http", "70000"],
    ]) {
      const refused = run(...args);
      expect(refused.status, args.join(" ")).toBe(2);
      expect(refused.stderr, args.join(" ")).toMatch(/--http|--token-file/);
    }
  });

  test("serve with an invalid config refuses to start and lists every problem with its key path", () => {
    const result = run("serve", "--config", writeConfig(INVALID));
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    for (const path of ["bridge.max_sessions", "bridge.colour", "server[0].command", "server[0].version", "workspace[0].root", "workspace[0].servers[1]"]) {
      expect(result.stderr).toContain(path);
    }
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test("validate exits 2 listing the problems, 0 for a valid config", () => {
    const invalid = run("validate", "--config", writeConfig(INVALID));
    expect(invalid.status).toBe(2);
    expect(invalid.stderr.trim().split("\n").length).toBeGreaterThanOrEqual(6);
    const valid = run(
      "validate",
      "--config",
      writeConfig('[[server]]\nname = "c"\nprofile = "clangd"\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["c"]\n'),
    );
    expect(valid).toMatchObject({ status: 0, stdout: expect.stringContaining("OK") });
  });

  test("a missing config file is a clear error, exit 2", () => {
    const result = run("serve", "--config", "/nonexistent/bridge.toml");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("/nonexistent/bridge.toml");
  });
});
