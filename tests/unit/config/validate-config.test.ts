import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { validateConfig } from "../../../src/config/validate-config.js";
import { packageRoot } from "../../../src/config/package-root.js";
import { fakeExecutable, serverToml, tempDir, writeFiles } from "./fixture.js";

describe("validateConfig (lspmcp validate)", () => {
  test("a valid file gives one OK line naming its servers and workspaces", async () => {
    const dir = await tempDir();
    await fakeExecutable(dir, "bin/ls1");
    await writeFiles(dir, {
      "bridge.toml": `${serverToml("one")}${serverToml("two", [".y"])}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one", "two"]\n`,
    });
    expect(await validateConfig(join(dir, "bridge.toml"))).toEqual({
      ok: true,
      text: `OK ${join(dir, "bridge.toml")}: 2 servers (one, two), 1 workspace (ws)\n`,
    });
  });

  test("an invalid file gives one KEY.PATH: message line per problem", async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      "bridge.toml": `[bridge]\nmax_sessions = "4"\n[[server]]\nname = "one"\ncommand = "bin/none"\nversion = "1"\nlanguages = [{ id = "x", extensions = [".x"] }]\nenv = { "MY VAR" = 1 }\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one", "two"]\n`,
    });
    const result = await validateConfig(join(dir, "bridge.toml"));
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
    const result = await validateConfig(join(dir, "bridge.toml"));
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(new RegExp(`^${join(dir, "bridge.toml")}:1:\\d+: TOML syntax error: .+\\n$`));
  });

  test("the shipped example configurations are valid", async () => {
    for (const file of ["bridge.toml.example", "config/agent.toml", "config/ci.toml"]) {
      const result = await validateConfig(join(packageRoot(), file));
      expect(result, file).toMatchObject({ ok: true });
    }
  });
});
