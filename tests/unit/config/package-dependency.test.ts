// lspmcp installed as another project's dependency: its own dependencies are where the package
// manager put them (hoisted into the project's node_modules by npm and yarn, links into pnpm's
// `.pnpm` store), and each is found where Node finds it. Layouts built by hand, links included.
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { resolveProfileExecutable } from "../../../src/config/resolve-executable.js";
import { chooseTypescriptCompiler } from "../../../src/languages/typescript/compiler.js";
import { REPO } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

/** lspmcp's manifest, as far as finding its dependencies goes. */
const LSPMCP = {
  name: "lspmcp",
  version: "0.1.0",
  dependencies: { "@biomejs/biome": "2.6.8", typescript: "5.9.3", "typescript-7": "npm:typescript@7.0.2", "vscode-langservers-extracted": "4.10.0" },
};

/** A package folder at `dir`: its package.json and executable files. */
function pkg(dir: string, manifest: object, files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    chmodSync(join(dir, path), 0o755);
  }
  return dir;
}

const typescript = (dir: string, version: string) =>
  pkg(
    dir,
    { name: "typescript", version, bin: { tsc: "./bin/tsc" } },
    { "bin/tsc": "#!/bin/sh\n", ...(version.startsWith("7") ? {} : { "lib/tsserver.js": "" }) },
  );
const extracted = (dir: string) =>
  pkg(
    dir,
    { name: "vscode-langservers-extracted", version: "4.10.0", bin: { "vscode-json-language-server": "bin/vscode-json-language-server" } },
    {
      "bin/vscode-json-language-server": "#!/bin/sh\n",
    },
  );
const biome = (dir: string) => pkg(dir, { name: "@biomejs/biome", version: "2.6.8", bin: { biome: "bin/biome" } }, { "bin/biome": "#!/bin/sh\n" });

/** A link at `path` to `target`, relative as package managers write them. */
function link(target: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(relative(dirname(path), target), path);
}

/** `npm i -D lspmcp` into a project: lspmcp's dependencies hoisted beside it; `own` is the project's typescript, if any. */
function npmProject(own: { version: string; declared: boolean } | null): { project: string; lspmcp: string; modules: string } {
  const project = realpathSync(tempDir("lspmcp-hoisted-"));
  const modules = join(project, "node_modules");
  pkg(project, { name: "proj", devDependencies: { lspmcp: "file:lspmcp-0.1.0.tgz", ...(own?.declared ? { typescript: own.version } : {}) } });
  const lspmcp = pkg(join(modules, "lspmcp"), LSPMCP);
  typescript(join(modules, "typescript-7"), "7.0.2");
  extracted(join(modules, "vscode-langservers-extracted"));
  biome(join(modules, "@biomejs/biome"));
  // The top-level slot is the project's typescript when it has one (lspmcp's 5.9.3 then nests
  // unless the project's is the same version, which npm shares); else lspmcp's, hoisted.
  if (own === null || own.version === "5.9.3") typescript(join(modules, "typescript"), "5.9.3");
  else {
    typescript(join(modules, "typescript"), own.version);
    typescript(join(lspmcp, "node_modules/typescript"), "5.9.3");
  }
  return { project, lspmcp, modules };
}

/** `pnpm add -D lspmcp` into a project with typescript 6.0.3: every package in `.pnpm`, reached through links. */
function pnpmProject(): { project: string; lspmcp: string; store: string } {
  const project = realpathSync(tempDir("lspmcp-pnpm-"));
  const store = join(project, "node_modules/.pnpm");
  pkg(project, { name: "proj", devDependencies: { lspmcp: "0.1.0", typescript: "6.0.3" } });
  const lspmcp = pkg(join(store, "lspmcp@0.1.0/node_modules/lspmcp"), LSPMCP);
  const ts7 = typescript(join(store, "typescript@7.0.2/node_modules/typescript"), "7.0.2");
  const ts5 = typescript(join(store, "typescript@5.9.3/node_modules/typescript"), "5.9.3");
  const ts6 = typescript(join(store, "typescript@6.0.3/node_modules/typescript"), "6.0.3");
  const json = extracted(join(store, "vscode-langservers-extracted@4.10.0/node_modules/vscode-langservers-extracted"));
  const lint = biome(join(store, "@biomejs+biome@2.6.8/node_modules/@biomejs/biome"));
  // lspmcp's dependencies are links beside it, an alias under its alias name.
  const beside = join(store, "lspmcp@0.1.0/node_modules");
  link(ts7, join(beside, "typescript-7"));
  link(ts5, join(beside, "typescript"));
  link(json, join(beside, "vscode-langservers-extracted"));
  link(lint, join(beside, "@biomejs/biome"));
  // The project's own: links at its top level, and nothing of lspmcp's there.
  link(lspmcp, join(project, "node_modules/lspmcp"));
  link(ts6, join(project, "node_modules/typescript"));
  return { project, lspmcp, store };
}

async function found(command: string, root: string): Promise<string> {
  const resolved = await resolveProfileExecutable(command, root, "");
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.path;
}

describe("a profile's node_modules path is found where Node finds lspmcp's dependency", () => {
  test("hoisted by npm into the project's node_modules: a package's file, an alias by its alias name, a declared command", async () => {
    const { lspmcp, modules } = npmProject({ version: "6.0.3", declared: true });
    expect(await found("node_modules/typescript-7/bin/tsc", lspmcp)).toBe(join(modules, "typescript-7/bin/tsc"));
    expect(await found("node_modules/.bin/vscode-json-language-server", lspmcp)).toBe(
      join(modules, "vscode-langservers-extracted/bin/vscode-json-language-server"),
    );
  });

  test("nested in lspmcp's own node_modules, it wins over the project's copy above", async () => {
    const { lspmcp } = npmProject(null);
    const nested = typescript(join(lspmcp, "node_modules/typescript-7"), "7.0.2");
    expect(await found("node_modules/typescript-7/bin/tsc", lspmcp)).toBe(join(nested, "bin/tsc"));
  });

  test("in pnpm's store, through the links beside lspmcp", async () => {
    const { lspmcp, store } = pnpmProject();
    expect(await found("node_modules/typescript-7/bin/tsc", lspmcp)).toBe(join(store, "typescript@7.0.2/node_modules/typescript/bin/tsc"));
    expect(await found("node_modules/.bin/vscode-json-language-server", lspmcp)).toBe(
      join(store, "vscode-langservers-extracted@4.10.0/node_modules/vscode-langservers-extracted/bin/vscode-json-language-server"),
    );
  });

  test("a dependency that is nowhere is named, with where Node looked from", async () => {
    const root = pkg(realpathSync(tempDir("lspmcp-bare-")), LSPMCP);
    expect(await resolveProfileExecutable("node_modules/typescript-7/bin/tsc", root, "")).toEqual({
      ok: false,
      message: `executable not found: node_modules/typescript-7/bin/tsc (lspmcp's dependency typescript-7 is not where Node looks from ${root})`,
    });
    expect(await resolveProfileExecutable("node_modules/.bin/vscode-json-language-server", root, "")).toMatchObject({ ok: false });
  });

  test("the wrappers' helpers find them too: npm-package-path (Biome's launcher and its platform binary) and npm-package-version", () => {
    const { lspmcp, store } = pnpmProject();
    cpSync(join(REPO, "servers/bin"), join(lspmcp, "servers/bin"), { recursive: true });
    const run = (script: string, ...args: string[]) => execFileSync(join(lspmcp, "servers/bin", script), args, { encoding: "utf8" }).trim();
    const lint = join(store, "@biomejs+biome@2.6.8/node_modules/@biomejs/biome");
    expect(run("npm-package-path", "@biomejs/biome")).toBe(lint);
    expect(run("npm-package-path", "@biomejs/biome", "--bin", "biome")).toBe(join(lint, "bin/biome"));
    // A package found from the one before it: Biome's platform package is its dependency, not lspmcp's.
    const platform = pkg(join(store, "@biomejs+cli-linux-x64@2.6.8/node_modules/@biomejs/cli-linux-x64"), { name: "@biomejs/cli-linux-x64", version: "2.6.8" });
    link(platform, join(store, "@biomejs+biome@2.6.8/node_modules/@biomejs/cli-linux-x64"));
    expect(run("npm-package-path", "@biomejs/biome", "@biomejs/cli-linux-x64")).toBe(platform);
    expect(run("npm-package-version", "typescript-7")).toBe("7.0.2");
  });
});

describe("which TypeScript answers a project that installed lspmcp", () => {
  const pinnedIn = (root: string) => join(root, "typescript-7");

  test("npm: the project's own 6.0.3 at the top level, lspmcp's 5.9.3 nested", () => {
    const { project, lspmcp, modules } = npmProject({ version: "6.0.3", declared: true });
    expect(chooseTypescriptCompiler(project, project, pinnedIn(modules), lspmcp)).toMatchObject({
      compiler: { source: "workspace", version: "6.0.3", packageDir: join(modules, "typescript") },
    });
  });

  test("npm: the project declares the very version lspmcp depends on, so the install shares one folder: the project's", () => {
    const { project, lspmcp, modules } = npmProject({ version: "5.9.3", declared: true });
    expect(chooseTypescriptCompiler(join(project, "src"), project, pinnedIn(modules), lspmcp)).toMatchObject({
      compiler: { source: "workspace", version: "5.9.3" },
    });
  });

  test("npm: no typescript of the project's own, lspmcp's 5.9.3 hoisted to the top level is lspmcp's: the pinned compiler answers", () => {
    const { project, lspmcp, modules } = npmProject(null);
    expect(chooseTypescriptCompiler(project, project, pinnedIn(modules), lspmcp)).toMatchObject({
      compiler: { source: "pinned", version: "7.0.2", packageDir: pinnedIn(modules) },
    });
  });

  test("the very folder of lspmcp's own typescript, linked into a workspace that is not where lspmcp is installed, is that workspace's", () => {
    const { project, lspmcp, modules } = npmProject(null);
    // Both in one checkout, so that the link stays inside what the checkout holds.
    const elsewhere = join(project, "elsewhere");
    link(join(modules, "typescript"), join(elsewhere, "node_modules/typescript"));
    expect(chooseTypescriptCompiler(elsewhere, project, pinnedIn(modules), lspmcp)).toMatchObject({
      compiler: { source: "workspace", version: "5.9.3" },
    });
  });

  test("pnpm: the project's own 6.0.3 through its link, not lspmcp's 5.9.3 nor the pinned 7.0.2", () => {
    const { project, lspmcp, store } = pnpmProject();
    expect(chooseTypescriptCompiler(project, project, join(store, "typescript@7.0.2/node_modules/typescript"), lspmcp)).toMatchObject({
      compiler: { source: "workspace", version: "6.0.3" },
    });
  });

  test("a workspace inside lspmcp's own folder (its checkout) is answered by the pinned compiler, not lspmcp's own typescript", () => {
    expect(chooseTypescriptCompiler(join(REPO, "examples"), REPO, join(REPO, "node_modules/typescript-7"), REPO)).toMatchObject({
      compiler: { source: "pinned", version: "7.0.2" },
    });
  });
});
