import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, test } from "vitest";
import { programKeys } from "../../../src/config/program-keys.js";
import { tempDir, writeFiles } from "./fixture.js";

// A fake package root whose profile `p` runs `bin/pls` with settings and env, and a config folder
// apart from it: the same relative path names another program in each.
const PROFILE = `
command = "bin/pls"
args = ["--stdio"]
version = "2.0"
version_command = ["bin/pls", "--version"]
languages = [{ id = "p", extensions = [".p"] }]
env = { A = "1", B = "2" }
settings = { a = { b = 1, c = 2 } }
`;

async function keysOf(server: string, root?: string): Promise<string[]> {
  const pkg = root ?? (await writeFiles(await tempDir(), { "servers/p.toml": PROFILE }));
  const dir = await tempDir();
  const keys = await programKeys(parse(`[[server]]\nname = "one"\n${server}\n`), dir, pkg);
  return keys.map((key) => `${key.path} = ${key.value}`);
}

describe("the keys by which a config chooses what runs", () => {
  test("a server that only picks a profile, or repeats its values (tables in any order), names none", async () => {
    expect(await keysOf('profile = "p"\nversion = "3.0"\nmax_rss_mb = 10\ninherit_env = ["GOPATH"]\nlanguages = [{ id = "q", extensions = [".q"] }]')).toEqual(
      [],
    );
    expect(await keysOf('profile = "p"\nargs = ["--stdio"]\nenv = { B = "2", A = "1" }\nsettings = { a = { c = 2, b = 1 } }\nadapter = "standard"')).toEqual(
      [],
    );
  });

  test("the profile's command spelled as the same absolute path is the same program", async () => {
    const pkg = await writeFiles(await tempDir(), { "servers/p.toml": PROFILE });
    expect(await keysOf(`profile = "p"\ncommand = ${JSON.stringify(join(pkg, "bin/pls"))}`, pkg)).toEqual([]);
  });

  test("each key set to something else is named, with its value; a table entry by entry, dropped entries too", async () => {
    expect(
      await keysOf(
        'profile = "p"\ncommand = "bin/pls"\nargs = ["-c", "x"]\nversion_command = ["bin/pls", "-V"]\nenv = { A = "1", PATH = "/evil" }\nsettings = { a = { b = 1 } }\nadapter = "typescript"',
      ),
    ).toEqual([
      // The same relative path, from the config's folder rather than the package root.
      'server[0].command = "bin/pls"',
      'server[0].args = ["-c","x"]',
      'server[0].version_command = ["bin/pls","-V"]',
      'server[0].env.PATH = "/evil"',
      "server[0].env.B = (removed)",
      'server[0].adapter = "typescript"',
      'server[0].settings.a = {"b":1}',
    ]);
  });

  test("every program key of a server without a profile is named", async () => {
    expect(await keysOf('command = "pls"\nargs = []\nversion = "1"\nlanguages = [{ id = "p", extensions = [".p"] }]')).toEqual(['server[0].command = "pls"']);
  });
});
