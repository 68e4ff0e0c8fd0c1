import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { claimingServers, pickServerForFile, resolveFile } from "../../../src/targets/resolve-target.js";
import { fakeExecutable, problemsOf, tempDir, writeFiles } from "./fixture.js";

// `diagnostics_server`: one server owns an extension's diagnostics (bacon-ls beside
// rust-analyzer), so no compiler finding comes twice, while every other tool follows default_server.
const server = (name: string, extensions: string[]) =>
  `[[server]]\nname = "${name}"\ncommand = "bin/ls1"\nversion = "1"\nlanguages = [{ id = "${name}", extensions = ${JSON.stringify(extensions)} }]\n`;
const SERVERS = server("semantics", [".rs"]) + server("checker", [".rs"]) + server("lint", [".rs", ".toml"]) + server("other", [".x"]);

async function configDir(workspace: string): Promise<string> {
  const dir = await tempDir();
  await fakeExecutable(dir, "bin/ls1");
  return writeFiles(dir, { "bridge.toml": `${SERVERS}[[workspace]]\nname = "ws"\nroot = "."\n${workspace}`, "src/main.rs": "", "Cargo.toml": "" });
}

describe("diagnostics_server", () => {
  test("diagnostics and check ask the owner alone for its extension; every other tool follows default_server; other extensions are untouched", async () => {
    const dir = await configDir(
      'servers = ["semantics", "checker", "lint"]\ndefault_server = { ".rs" = "semantics" }\ndiagnostics_server = { "RS" = "checker" }\n',
    );
    const config = await loadConfig(join(dir, "bridge.toml"));
    const workspace = config.workspaces[0]!;
    expect(workspace.diagnostics_server).toEqual({ ".rs": "checker" });
    const rust = resolveFile(workspace, "src/main.rs");
    expect(claimingServers(config, workspace, rust).map((s) => s.name)).toEqual(["checker"]);
    expect(pickServerForFile(config, workspace, undefined, rust).server.name).toBe("semantics");
    // A call that names a server still reaches it.
    expect(pickServerForFile(config, workspace, "lint", rust).server.name).toBe("lint");
    expect(claimingServers(config, workspace, resolveFile(workspace, "Cargo.toml")).map((s) => s.name)).toEqual(["lint"]);
  });

  test("without it, diagnostics asks every claiming server, as before", async () => {
    const dir = await configDir('servers = ["semantics", "checker"]\ndefault_server = { ".rs" = "semantics" }\n');
    const config = await loadConfig(join(dir, "bridge.toml"));
    const workspace = config.workspaces[0]!;
    expect(claimingServers(config, workspace, resolveFile(workspace, "src/main.rs")).map((s) => s.name)).toEqual(["semantics", "checker"]);
  });

  test("each bad entry is ConfigInvalid at its key: a server outside the workspace, one not claiming the key, a key claimed by one server alone, not an extension", async () => {
    const dir = await configDir(
      [
        'servers = ["semantics", "checker", "lint"]',
        'default_server = { ".rs" = "semantics", ".toml" = "lint" }',
        'diagnostics_server = { ".rs" = "other", ".toml" = "lint", "d.ts" = "lint", ".x" = "checker" }',
        "",
      ].join("\n"),
    );
    expect(await problemsOf(dir)).toEqual([
      { path: 'workspace[0].diagnostics_server.".rs"', message: '"other" is not one of this workspace\'s servers' },
      {
        path: 'workspace[0].diagnostics_server.".toml"',
        message: '".toml" is claimed by "lint" alone; diagnostics_server chooses one of several servers that claim it',
      },
      { path: 'workspace[0].diagnostics_server.".x"', message: 'server "checker" does not claim ".x"' },
      { path: 'workspace[0].diagnostics_server."d.ts"', message: '"d.ts" is not a file extension such as ".ts" nor a claimed file name' },
    ]);
  });

  test("it does not stand in for default_server: an extension claimed twice still needs one", async () => {
    const dir = await configDir('servers = ["semantics", "checker"]\ndiagnostics_server = { ".rs" = "checker" }\n');
    expect(await problemsOf(dir)).toEqual([
      { path: 'workspace[0].default_server.".rs"', message: '".rs" is claimed by "semantics" and "checker"; choose one here' },
    ]);
  });
});
