import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { claimingServers, resolveFile, pickServerForFile } from "../../../src/targets/resolve-target.js";
import { discoverInWorkspace } from "../../../src/targets/discover-targets.js";
import { fakeExecutable, problemsOf, tempDir, writeFiles } from "./fixture.js";

const server = (name: string, languages: string, extra = "") =>
  `[[server]]\nname = "${name}"\ncommand = "bin/ls1"\nversion = "1"\nlanguages = ${languages}\n${extra}\n`;

async function configDir(toml: string): Promise<string> {
  const dir = await tempDir();
  await fakeExecutable(dir, "bin/ls1");
  return writeFiles(dir, { "bridge.toml": toml, Dockerfile: "FROM x\n", "a.dockerfile": "FROM x\n", "a.ts": "" });
}

describe("languages claiming whole file names (CONTRACT §3 `filenames`)", () => {
  test("a bare file name is routed by name, an extension by extension, and position_encoding is kept", async () => {
    const dir = await configDir(
      server("docker", '[{ id = "dockerfile", extensions = [".dockerfile"], filenames = ["Dockerfile"] }]', 'position_encoding = "utf-32"') +
        `[[workspace]]\nname = "ws"\nroot = "."\nservers = ["docker"]\n`,
    );
    const config = await loadConfig(join(dir, "bridge.toml"));
    const workspace = config.workspaces[0]!;
    expect(config.servers[0]).toMatchObject({
      languages: [{ id: "dockerfile", extensions: [".dockerfile"], filenames: ["Dockerfile"] }],
      position_encoding: "utf-32",
    });
    for (const path of ["Dockerfile", "a.dockerfile"]) {
      expect(pickServerForFile(config, workspace, undefined, resolveFile(workspace, path)).languageId).toBe("dockerfile");
    }
    expect(() => pickServerForFile(config, workspace, undefined, resolveFile(workspace, "dockerfile"))).toThrow(/no server/);
  });

  test("a file name claimed twice needs a default_server entry keyed by that name; diagnostics asks both", async () => {
    const two =
      server("a", '[{ id = "d", filenames = ["Dockerfile"] }]') + server("b", '[{ id = "d", filenames = ["Dockerfile"] }, { id = "t", extensions = [".ts"] }]');
    const missing = await problemsOf(await configDir(`${two}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["a", "b"]\n`));
    expect(missing).toEqual([{ path: "workspace[0].default_server.Dockerfile", message: '"Dockerfile" is claimed by "a" and "b"; choose one here' }]);

    const dir = await configDir(`${two}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["a", "b"]\ndefault_server = { Dockerfile = "b" }\n`);
    const config = await loadConfig(join(dir, "bridge.toml"));
    const workspace = config.workspaces[0]!;
    const file = resolveFile(workspace, "Dockerfile");
    expect(pickServerForFile(config, workspace, undefined, file).server.name).toBe("b");
    expect(claimingServers(config, workspace, file).map((s) => s.name)).toEqual(["a", "b"]);
    expect(claimingServers(config, workspace, resolveFile(workspace, "a.ts")).map((s) => s.name)).toEqual(["b"]);
  });

  test("a folder's files are claimed by name where a server claims the name, by extension elsewhere", async () => {
    const two =
      server("a", '[{ id = "d", filenames = ["Dockerfile"] }]') + server("b", '[{ id = "d", filenames = ["Dockerfile"] }, { id = "t", extensions = [".ts"] }]');
    const dir = await configDir(`${two}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["a", "b"]\ndefault_server = { Dockerfile = "b" }\n`);
    await writeFiles(dir, { README: "", "b.ts": "", "sub/Dockerfile": "FROM x\n" });
    const config = await loadConfig(join(dir, "bridge.toml"));
    // README first: a file with no extension that nobody claims, before others with none.
    const targets = await discoverInWorkspace(config, config.workspaces[0]!, undefined, ["."], ["README", "Dockerfile", "a.ts", "b.ts", "sub/Dockerfile"]);
    expect(targets.map((target) => `${target.file.path} ${target.server.name} ${target.languageId}`)).toEqual([
      "Dockerfile a d",
      "sub/Dockerfile a d",
      "Dockerfile b d",
      "a.ts b t",
      "b.ts b t",
      "sub/Dockerfile b d",
    ]);
  });

  test("a language with neither extensions nor filenames is ConfigInvalid", async () => {
    const dir = await configDir(server("one", '[{ id = "x" }]') + `[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`);
    expect(await problemsOf(dir)).toEqual([
      { path: "server[0].languages[0].extensions", message: "a language claims files by `extensions`, `filenames` or both" },
    ]);
  });

  test("a file name with a slash is ConfigInvalid", async () => {
    const dir = await configDir(server("one", '[{ id = "y", filenames = ["a/b"] }]') + `[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`);
    expect(await problemsOf(dir)).toEqual([{ path: "server[0].languages[0].filenames[0]", message: '"a/b" is not a file name such as "Dockerfile"' }]);
  });
});
