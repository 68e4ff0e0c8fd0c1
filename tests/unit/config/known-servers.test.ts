import { copyFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { knownByInitialize, knownByPackage, knownByVersionOutput } from "../../../src/config/known-servers.js";
import { adapterAdvertised } from "../../../src/languages/index.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { REPO } from "../../helpers/paths.js";
import { tempDir, writeFiles } from "./fixture.js";

const TSLS_BIN = join(REPO, "node_modules/.bin/typescript-language-server");

describe("a known server is recognised by exact marks only", () => {
  test("typescript-language-server's own bin, through npm's link, is the tsserver adapter's", () => {
    expect(knownByPackage(TSLS_BIN)?.adapter).toBe("tsserver");
    expect(knownByPackage(join(REPO, "node_modules/typescript-language-server/lib/cli.mjs"))?.adapter).toBe("tsserver");
  });

  test("TypeScript 7's tsc is the native adapter's; TypeScript 5's tsc is no language server", () => {
    expect(knownByPackage(join(REPO, "node_modules/typescript-7/bin/tsc"))?.adapter).toBe("typescript");
    expect(knownByPackage(join(REPO, "node_modules/typescript/bin/tsc"))).toBeNull();
  });

  test("a file of that name outside the package, or another file of the package, is not it", async () => {
    const dir = await tempDir();
    await copyFile(join(REPO, "node_modules/typescript-language-server/lib/cli.mjs"), join(dir, "typescript-language-server"));
    expect(knownByPackage(join(dir, "typescript-language-server"))).toBeNull();
    // A package of another name that ships a command of that name.
    await writeFiles(dir, {
      "fork/package.json": JSON.stringify({ name: "typescript-language-server-fork", version: "5.3.0", bin: { "typescript-language-server": "cli.mjs" } }),
      "fork/cli.mjs": "",
    });
    expect(knownByPackage(join(dir, "fork/cli.mjs"))).toBeNull();
    await symlink(join(REPO, "node_modules/typescript-language-server/package.json"), join(dir, "link"));
    expect(knownByPackage(join(dir, "link"))).toBeNull();
    expect(knownByPackage(join(dir, "missing"))).toBeNull();
  });

  test("serverInfo names are compared whole and case by case", () => {
    expect(knownByInitialize("ccls", null)?.adapter).toBe("ccls");
    expect(knownByInitialize("gopls", null)?.adapter).toBe("gopls");
    expect(knownByInitialize("typescript-go", null)?.adapter).toBe("typescript");
    // typescript-language-server names itself nowhere, but advertises tsserver's own request.
    expect(knownByInitialize(undefined, adapterAdvertised(["_typescript.organizeImports", "typescript.tsserverRequest"]))?.adapter).toBe("tsserver");
    expect(knownByInitialize(undefined, adapterAdvertised(["typescript.tsserverRequests", "tsserverRequest"]))).toBeNull();
    for (const name of ["CCLS", "ccls-fork", "my gopls", "rust", "typescript", "", undefined]) expect(knownByInitialize(name, null)).toBeNull();
  });

  test("a version output is matched on its first line, from its start to its end", () => {
    expect(knownByVersionOutput("Debian ccls version 0.20220729-2\nclang version 14.0.6\n")?.adapter).toBe("ccls");
    expect(knownByVersionOutput("golang.org/x/tools/gopls v0.23.0\n")?.adapter).toBe("gopls");
    expect(knownByVersionOutput("rust-analyzer 0.0.0 (4b5b3a8 2026-11-30)")?.adapter).toBe("rust-analyzer");
    for (const output of ["5.3.0", "not ccls version 1", "example.com/gopls v1", "rust-analyzer-fork 1.0", "", "\n"]) {
      expect(knownByVersionOutput(output)).toBeNull();
    }
  });
});

describe("an entry's adapter, and how it was chosen", () => {
  const entry = (extra: string) =>
    `[[server]]\nname = "ts"\ncommand = ${JSON.stringify(TSLS_BIN)}\nargs = ["--stdio"]\nversion = "5.3.0"\nlanguages = [{ id = "typescript", extensions = [".ts"] }]\n${extra}[[workspace]]\nname = "ws"\nroot = "."\nservers = ["ts"]\n`;
  const load = async (toml: string) => {
    const dir = await writeFiles(await tempDir(), { "bridge.toml": toml });
    return (await loadConfig(join(dir, "bridge.toml"))).servers[0]!;
  };

  test("a hand-written typescript-language-server entry is recognised by its command", async () => {
    expect(await load(entry(""))).toMatchObject({
      adapter: "tsserver",
      adapter_chosen_by: { by: "package", server: "typescript-language-server", profile: "typescript" },
    });
  });

  test("the entry's own adapter key wins", async () => {
    expect(await load(entry('adapter = "standard"\n'))).toMatchObject({ adapter: "standard", adapter_chosen_by: { by: "entry" } });
  });

  test("a profile that names no adapter chose the standard rule", async () => {
    const server = await load(`[[server]]\nname = "py"\nprofile = "pyright"\n[[workspace]]\nname = "ws"\nroot = "."\nservers = ["py"]\n`);
    expect(server).toMatchObject({ adapter: "standard", adapter_chosen_by: { by: "profile", profile: "pyright" } });
  });
});
