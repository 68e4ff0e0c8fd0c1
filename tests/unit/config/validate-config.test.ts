import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { validateConfig } from "../../../src/config/validate-config.js";
import { packageRoot } from "../../../src/config/package-root.js";
import { projectRootsIn } from "../../../src/languages/index.js";
import { fakeExecutable, serverToml, tempDir, WORKSPACE_OF_ONE, writeFiles } from "./fixture.js";

describe("validateConfig (lspmcp validate)", () => {
  test("a valid file gives one OK line naming its servers and workspaces", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await writeFiles(dir, {
      "bridge.toml": `${serverToml("one")}${serverToml("two", [".y"])}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one", "two"]\n`,
    });
    expect(await validateConfig(join(dir, "bridge.toml"), projectRootsIn)).toEqual({
      ok: true,
      text: `OK ${join(dir, "bridge.toml")}: 2 servers (one, two), 1 workspace (ws)\nrule of one: standard: the standard rule (no adapter named, no known server's command; a known server's serverInfo or version output at its start chooses its own)\nrule of two: standard: the standard rule (no adapter named, no known server's command; a known server's serverInfo or version output at its start chooses its own)\ntrust: not needed (it was named with --config from outside the checkout)\n`,
    });
  });

  test("a checkout's file that runs its own programs is valid and reported untrusted, with what it would run", async () => {
    const dir = await tempDir();
    vi.stubEnv("XDG_STATE_HOME", await tempDir());
    await fakeExecutable(dir, "bin/ls1");
    await writeFiles(dir, { "bridge.toml": `${serverToml("one")}${WORKSPACE_OF_ONE}` });
    const path = join(dir, "bridge.toml");
    const result = await validateConfig(path, projectRootsIn, { fromCheckout: true, optIn: null }).finally(() => vi.unstubAllEnvs());
    expect(result).toEqual({
      ok: true,
      text:
        `OK ${path}: 1 server (one), 1 workspace (ws)\n` +
        "rule of one: standard: the standard rule (no adapter named, no known server's command; a known server's serverInfo or version output at its start chooses its own)\n" +
        `trust: NOT trusted (it has not been trusted); serve and check refuse it until: lspmcp trust --config ${path}\n` +
        '  server[0].command = "bin/ls1"\n',
    });
  });

  test("an invalid file gives one KEY.PATH: message line per problem", async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      "bridge.toml": `[bridge]\nmax_sessions = "4"\n[[server]]\nname = "one"\ncommand = "bin/none"\nversion = "1"\nlanguages = [{ id = "x", extensions = [".x"] }]\nenv = { "MY VAR" = 1 }\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one", "two"]\n`,
    });
    const result = await validateConfig(join(dir, "bridge.toml"), projectRootsIn);
    expect(result.ok).toBe(false);
    expect(result.text).toBe(
      [
        "bridge.max_sessions: Invalid input: expected number, received string",
        `server[0].command: executable not found: ${join(dir, "bin/none")}`,
        'server[0].env."MY VAR": Invalid input: expected string, received number',
        'workspace[0].servers[1]: unknown server "two"',
        "",
      ].join("\n"),
    );
  });

  test("a syntax error prints file:line:column", async () => {
    const dir = await writeFiles(await tempDir(), { "bridge.toml": "[[server]\n" });
    const result = await validateConfig(join(dir, "bridge.toml"), projectRootsIn);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(new RegExp(`^${join(dir, "bridge.toml")}:1:\\d+: TOML syntax error: .+\\n$`));
  });

  test("the shipped example configurations are valid", async () => {
    for (const file of ["bridge.toml.example", "config/agent.toml", "config/ci.toml"]) {
      const result = await validateConfig(join(packageRoot(), file), projectRootsIn);
      expect(result, file).toMatchObject({ ok: true });
    }
  });
});
