import { execFileSync } from "node:child_process";
import { chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { stringify } from "smol-toml";
import { describe, expect, test } from "vitest";
import { planDefault, type PlanOptions } from "../../../src/config/default-plan.js";
import { loadDefaultConfig } from "../../../src/config/default-config.js";
import { describeConfig } from "../../../src/config/config-source.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { loadProfile } from "../../../src/config/profiles.js";
import { renderDefaultToml } from "../../../src/config/render-default-toml.js";
import { answeringClause, answeringComment, projectRootsIn } from "../../../src/languages/index.js";
import { REPO } from "../../helpers/paths.js";
import { tempDir, writeFiles } from "./fixture.js";

/** The plan with the registry's project roots, as every command makes it. */
const planWith = (root: string, options: Omit<PlanOptions, "projectRoots">) => planDefault(root, { ...options, projectRoots: projectRootsIn });

/**
 * A package root with profiles claiming the given extensions; `missing` ones name a command that
 * does not exist. Each takes the `[default]` table of the shipped profile of its name, if any.
 */
async function packageWith(profiles: Record<string, { extensions: string[]; missing?: boolean; install?: string }>): Promise<string> {
  const root = await tempDir();
  const files: Record<string, string> = {};
  for (const [name, { extensions, missing, install }] of Object.entries(profiles)) {
    files[`servers/${name}.toml`] = [
      `command = ${JSON.stringify(missing ? "/nonexistent/server" : "/bin/true")}`,
      'version = "1.0.0"',
      `languages = [{ id = "${name}", extensions = ${JSON.stringify(extensions)} }]`,
      ...(install === undefined ? [] : [`install = ${install}`]),
      ...(await shippedDefault(name)),
    ].join("\n");
  }
  return writeFiles(root, files);
}

/** The shipped profile's `[default]` table as TOML lines: how the embedded default detects and orders a profile of that name. */
async function shippedDefault(name: string): Promise<string[]> {
  const shipped = await loadProfile(REPO, name);
  return shipped.ok && shipped.profile.default ? ["[default]", stringify(shipped.profile.default)] : [];
}

function gitInit(dir: string): string {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

describe("the embedded default's plan", () => {
  test("every profile whose extension occurs, in git's tracked and untracked-not-ignored files; ignored files do not count", async () => {
    const pkg = await packageWith({ typescript: { extensions: [".ts"] }, pyright: { extensions: [".py"] }, bash: { extensions: [".sh"] } });
    const repo = gitInit(await writeFiles(await tempDir(), { "src/a.ts": "", "build/b.sh": "", ".gitignore": "build/\n" }));
    const plan = await planWith(repo, { packageRoot: pkg, searchPath: "" });
    expect(plan.servers.map((server) => server.name)).toEqual(["typescript"]);
    expect(plan.detected.via).toBe("git");
  });

  test("marker files count: tsconfig.json brings typescript, pyproject.toml pyright, with no source file yet", async () => {
    const pkg = await packageWith({ typescript: { extensions: [".ts"] }, pyright: { extensions: [".py"] }, clangd: { extensions: [".c"] } });
    const repo = gitInit(await writeFiles(await tempDir(), { "tsconfig.json": "{}", "sub/pyproject.toml": "" }));
    const plan = await planWith(repo, { packageRoot: pkg, searchPath: "" });
    expect(plan.servers.map((server) => [server.name, server.serves])).toEqual([
      ["typescript", ["tsconfig.json"]],
      ["pyright", ["pyproject.toml"]],
    ]);
  });

  test("one server per language: an alternative profile joins only for what the first cannot serve, or when the first is missing", async () => {
    const both = await packageWith({ pyright: { extensions: [".py"] }, pylsp: { extensions: [".py"] } });
    const repo = gitInit(await writeFiles(await tempDir(), { "a.py": "" }));
    expect((await planWith(repo, { packageRoot: both, searchPath: "" })).servers.map((server) => server.name)).toEqual(["pyright"]);
    const firstMissing = await packageWith({ pyright: { extensions: [".py"], missing: true }, pylsp: { extensions: [".py"] } });
    const plan = await planWith(repo, { packageRoot: firstMissing, searchPath: "" });
    expect(plan.servers.map((server) => server.name)).toEqual(["pylsp"]);
    expect(plan.omitted).toEqual([{ server: "pyright", reason: expect.stringContaining("/nonexistent/server"), install: expect.any(String) }]);
  });

  test("two chosen profiles sharing an extension get a default_server for it, so the default is a valid config", async () => {
    const pkg = await packageWith({ typescript: { extensions: [".ts", ".json"] }, zjson: { extensions: [".json", ".jsonc"] } });
    const repo = gitInit(await writeFiles(await tempDir(), { "a.ts": "", "b.jsonc": "" }));
    const plan = await planWith(repo, { packageRoot: pkg, searchPath: "" });
    expect(plan.defaultServer).toEqual({ ".json": "typescript" });
    const config = await loadDefaultConfig(repo, projectRootsIn, { packageRoot: pkg, searchPath: "" });
    expect(config.workspaces[0]!.default_server).toEqual({ ".json": "typescript" });
  });

  test("ruff joins pyright only where the project configures it: ruff.toml, .ruff.toml, or [tool.ruff] in a pyproject.toml, at the root or in a sub-folder", async () => {
    const pkg = await packageWith({ pyright: { extensions: [".py", ".pyi"] }, ruff: { extensions: [".py", ".pyi"] } });
    const planFor = async (files: Record<string, string>) => {
      const plan = await planWith(gitInit(await writeFiles(await tempDir(), { "a.py": "", ...files })), { packageRoot: pkg, searchPath: "" });
      return { servers: plan.servers.map((server) => [server.name, server.serves]), defaultServer: plan.defaultServer };
    };
    const both = (marker: string) => ({
      servers: [
        ["pyright", [".py"]],
        ["ruff", [marker]],
      ],
      defaultServer: { ".py": "pyright", ".pyi": "pyright" },
    });
    expect(await planFor({})).toEqual({ servers: [["pyright", [".py"]]], defaultServer: {} });
    expect(await planFor({ "pyproject.toml": "[project]\nname = 'a'\n" })).toEqual({ servers: [["pyright", [".py", "pyproject.toml"]]], defaultServer: {} });
    expect(await planFor({ "ruff.toml": "" })).toEqual(both("ruff.toml"));
    expect(await planFor({ ".ruff.toml": "" })).toEqual(both(".ruff.toml"));
    expect(await planFor({ "pyproject.toml": "[tool.ruff.lint]\nselect = ['F']\n" })).toEqual({
      servers: [
        ["pyright", [".py", "pyproject.toml"]],
        ["ruff", ["pyproject.toml [tool.ruff]"]],
      ],
      defaultServer: { ".py": "pyright", ".pyi": "pyright" },
    });
    // A monorepo configures it where its Python lives: the sub-folder's files count, in git or not.
    const configured = {
      servers: both("pyproject.toml [tool.ruff]").servers.map(([name, serves]) => (name === "pyright" ? [name, [".py", "pyproject.toml"]] : [name, serves])),
    };
    expect(await planFor({ "web/pyproject.toml": "[project]\nname = 'w'\n", "py/pyproject.toml": "[tool.ruff]\nline-length = 100\n" })).toMatchObject(
      configured,
    );
    expect(await planFor({ "py/ruff.toml": "" })).toEqual(both("ruff.toml"));
    expect(await planFor({ "py/lib/.ruff.toml": "" })).toEqual(both(".ruff.toml"));
    const walked = await planWith(await writeFiles(await tempDir(), { "py/a.py": "", "py/pyproject.toml": "[tool.ruff.lint]\n" }), {
      packageRoot: pkg,
      searchPath: "",
    });
    expect(walked.servers.map((server) => server.name)).toEqual(["pyright", "ruff"]);
    // An ignored copy is not the project's.
    expect(await planFor({ ".gitignore": "vendor/\n", "vendor/pyproject.toml": "[tool.ruff]\n" })).toMatchObject({ servers: [["pyright", [".py"]]] });
  });

  test("the type checker the project configures answers Python in pyright's place: ty, pyrefly, basedpyright, with ruff beside it; each says why", async () => {
    const python = { extensions: [".py", ".pyi"] };
    const pkg = await packageWith({ pyright: python, ruff: python, ty: python, pyrefly: python, basedpyright: python });
    const planFor = async (files: Record<string, string>, packageRoot = pkg) => {
      const plan = await planWith(gitInit(await writeFiles(await tempDir(), { "a.py": "", ...files })), { packageRoot, searchPath: "" });
      return {
        servers: plan.servers.map((server) => [server.name, server.serves, server.reason]),
        defaultServer: plan.defaultServer,
        omitted: plan.omitted.map((left) => left.server),
      };
    };
    const byDefault =
      "Python's type checker by default (none of ty.toml, pyproject.toml [tool.ty], pyrefly.toml, pyproject.toml [tool.pyrefly], pyproject.toml [tool.basedpyright] found)";
    expect(await planFor({})).toEqual({ servers: [["pyright", [".py"], byDefault]], defaultServer: {}, omitted: [] });
    expect(await planFor({ "ty.toml": "" })).toEqual({ servers: [["ty", [".py", "ty.toml"], "configured by ty.toml"]], defaultServer: {}, omitted: [] });
    expect(await planFor({ "py/pyproject.toml": "[tool.ty.rules]\n" })).toMatchObject({
      servers: [["ty", [".py", "pyproject.toml [tool.ty]"], "configured by pyproject.toml [tool.ty]"]],
    });
    expect(await planFor({ "pyrefly.toml": "" })).toMatchObject({ servers: [["pyrefly", [".py", "pyrefly.toml"], "configured by pyrefly.toml"]] });
    expect(await planFor({ "pyproject.toml": "[tool.pyrefly]\n" })).toMatchObject({
      servers: [["pyrefly", [".py", "pyproject.toml [tool.pyrefly]"], expect.any(String)]],
    });
    expect(await planFor({ "pyproject.toml": "[tool.basedpyright]\ntypeCheckingMode = 'all'\n" })).toMatchObject({
      servers: [["basedpyright", [".py", "pyproject.toml [tool.basedpyright]"], "configured by pyproject.toml [tool.basedpyright]"]],
    });
    // [tool.pyright] is pyright's own, and a table's name must match whole.
    expect(await planFor({ "pyproject.toml": "[tool.pyright]\n[tool.tyre]\n" })).toMatchObject({
      servers: [["pyright", [".py", "pyproject.toml"], byDefault]],
    });
    expect(await planFor({ "pyproject.toml": "[tool.ty]\n[tool.ruff]\n" })).toEqual({
      servers: [
        ["ty", [".py", "pyproject.toml [tool.ty]"], "configured by pyproject.toml [tool.ty]"],
        ["ruff", ["pyproject.toml [tool.ruff]"], "configured by pyproject.toml [tool.ruff]"],
      ],
      defaultServer: { ".py": "ty", ".pyi": "ty" },
      omitted: [],
    });
    // Configured but not installed: left out with how to install it, and pyright answers meanwhile.
    const tyMissing = await packageWith({ pyright: python, ty: { ...python, missing: true } });
    expect(await planFor({ "ty.toml": "" }, tyMissing)).toEqual({
      servers: [["pyright", [".py"], "Python's type checker by default (ty configured but not installed)"]],
      defaultServer: {},
      omitted: ["ty"],
    });
    const config = await loadDefaultConfig(gitInit(await writeFiles(await tempDir(), { "a.py": "", "ty.toml": "" })), projectRootsIn, {
      packageRoot: pkg,
      searchPath: "",
    });
    expect(config.chosen).toEqual([{ server: "ty", reason: "configured by ty.toml" }]);
    expect(describeConfig(config, answeringClause)).toMatch(/: servers ty; ty: configured by ty\.toml$/);
  });

  test("Cargo.toml brings rust-analyzer before any .rs file exists; without cargo it is left out", async () => {
    const pkg = await packageWith({
      "rust-analyzer": { extensions: [".rs"], install: '{ from = "cargo", crate = "ra_ap_rust-analyzer", needs = ["cargo"] }' },
    });
    const repo = gitInit(await writeFiles(await tempDir(), { "Cargo.toml": "" }));
    const cargo = execFileSync("sh", ["-c", "command -v cargo"], { encoding: "utf8" }).trim();
    const plan = await planWith(repo, { packageRoot: pkg, searchPath: dirname(cargo) });
    expect(plan.servers.map((server) => [server.name, server.serves])).toEqual([["rust-analyzer", ["Cargo.toml"]]]);
    const without = await planWith(repo, { packageRoot: pkg, searchPath: "/nonexistent" });
    expect(without.omitted).toEqual([{ server: "rust-analyzer", reason: '"cargo" not found on PATH', install: "lspmcp servers install rust-analyzer" }]);
  });

  test("bacon-ls, a diagnostics-only server, is never planned: rust-analyzer serves Rust, and nothing when it is missing", async () => {
    const cargo = execFileSync("sh", ["-c", "command -v cargo"], { encoding: "utf8" }).trim();
    const repo = gitInit(await writeFiles(await tempDir(), { "Cargo.toml": "", "src/lib.rs": "" }));
    const both = await packageWith({ "bacon-ls": { extensions: [".rs"] }, "rust-analyzer": { extensions: [".rs"] } });
    expect((await planWith(repo, { packageRoot: both, searchPath: dirname(cargo) })).servers.map((server) => server.name)).toEqual(["rust-analyzer"]);
    const alone = await packageWith({ "bacon-ls": { extensions: [".rs"] }, "rust-analyzer": { extensions: [".rs"], missing: true } });
    const plan = await planWith(repo, { packageRoot: alone, searchPath: dirname(cargo) });
    expect(plan.servers).toEqual([]);
    expect(plan.omitted.map((entry) => entry.server)).toEqual(["rust-analyzer"]);
  });

  test("Lua: a .lua file, or EmmyLua's .emmyrc.json or .luarc.json before any, brings the emmylua profile, which claims .lua", async () => {
    const shipped = await loadProfile(REPO, "emmylua");
    expect(shipped.ok && shipped.profile.languages).toEqual([{ id: "lua", extensions: [".lua"] }]);
    const pkg = await packageWith({ emmylua: { extensions: [".lua"] } });
    const planFor = async (files: Record<string, string>) =>
      (await planWith(gitInit(await writeFiles(await tempDir(), files)), { packageRoot: pkg, searchPath: "" })).servers.map((server) => [
        server.name,
        server.serves,
      ]);
    expect(await planFor({ "game/main.lua": "" })).toEqual([["emmylua", [".lua"]]]);
    expect(await planFor({ ".emmyrc.json": "{}" })).toEqual([["emmylua", [".emmyrc.json"]]]);
    expect(await planFor({ "sub/.luarc.json": "{}" })).toEqual([["emmylua", [".luarc.json"]]]);
    expect(await planFor({ "notes.txt": "" })).toEqual([]);
  });

  test("outside git, the folder is walked (dependencies and dot-folders skipped)", async () => {
    const pkg = await packageWith({ typescript: { extensions: [".ts"] }, pyright: { extensions: [".py"] } });
    const dir = await writeFiles(await tempDir(), { "node_modules/x/index.ts": "", ".venv/lib/y.py": "", "deep/er/z.py": "" });
    const plan = await planWith(dir, { packageRoot: pkg, searchPath: "" });
    expect(plan.servers.map((server) => server.name)).toEqual(["pyright"]);
    expect(plan.detected.via).toBe("walk");
  });

  test("the shipped profiles: clangd and maude are left out by name, with how to install them, when not on PATH", async () => {
    const repo = gitInit(await writeFiles(await tempDir(), { "a.ts": "", "b.c": "", "c.maude": "" }));
    const config = await loadDefaultConfig(repo, projectRootsIn, { packageRoot: REPO, searchPath: "/nonexistent" });
    expect(config.servers.map((server) => server.name)).toEqual(["typescript"]);
    // ccls, the alternative C server, would take over from a missing clangd; it is missing too.
    expect(config.omitted.map((omitted) => omitted.server)).toEqual(["clangd", "maude", "ccls"]);
    expect(config.omitted[0]!.reason).toContain('"clangd" not found on PATH');
    expect(config.omitted[0]!.install).toContain("apt-get install clangd");
    expect(config.omitted[1]!.reason).toContain('"maude" not found on PATH');
    expect(config.source).toEqual({ kind: "default", root: repo });
    expect(config.workspaces[0]!.root).toBe(repo);
  });

  test("off Debian: a clangd of another version is left out with what it reports, the pin and how to pin it; with the pin, it is planned", async () => {
    const repo = gitInit(await writeFiles(await tempDir(), { "a.ts": "", "b.c": "" }));
    const clangdSaying = async (line: string) => {
      const bin = await writeFiles(await tempDir(), { clangd: `#!/bin/sh\necho '${line}'\n` });
      chmodSync(join(bin, "clangd"), 0o755);
      return { packageRoot: REPO, searchPath: bin };
    };
    const onUbuntu = await clangdSaying("Ubuntu clangd version 18.1.3 (1ubuntu1)");
    const ubuntu = await loadDefaultConfig(repo, projectRootsIn, onUbuntu);
    expect(ubuntu.servers.map((server) => server.name)).toEqual(["typescript"]);
    const clangd = ubuntu.omitted.find((omitted) => omitted.server === "clangd")!;
    expect(clangd.reason).toBe(
      'installed, but `clangd --version` reports "Ubuntu clangd version 18.1.3 (1ubuntu1)", and the profile pins 14.0.6 (Debian 12\'s)',
    );
    expect(clangd.install).toBe('pin what is installed in a bridge.toml, version = "18.1.3" in its [[server]] (`lspmcp init` writes the file)');
    expect(describeConfig(ubuntu, answeringClause)).toContain("left out clangd: installed, but `clangd --version` reports");
    // init writes the pin to uncomment beside the server's commented table.
    expect(renderDefaultToml(await planWith(repo, onUbuntu), repo, "/schema.json", () => null)).toContain('# profile = "clangd"\n# version = "18.1.3"\n');
    const debian = await loadDefaultConfig(repo, projectRootsIn, await clangdSaying("Debian clangd version 14.0.6 linux+grpc x86_64-pc-linux-gnu"));
    expect(debian.servers.map((server) => server.name)).toEqual(["typescript", "clangd"]);
    expect(debian.omitted.map((omitted) => omitted.server)).not.toContain("clangd");
  });

  test("init's rendering loads as the very configuration the embedded default is, from a sub-folder too", async () => {
    const repo = gitInit(await writeFiles(await tempDir(), { "a.ts": "", "tools/b.py": "", "c.c": "", "sub/.keep": "" }));
    const options = { packageRoot: REPO, searchPath: "/nonexistent" };
    const plan = await planWith(repo, options);
    await writeFiles(repo, {
      "sub/bridge.toml": renderDefaultToml(plan, join(repo, "sub"), "/schema.json", ({ name, profile }, root, projects) =>
        profile.adapter && profile.command ? answeringComment(name, profile.adapter, profile.command, root, projects) : null,
      ),
    });
    const fromFile = await loadConfig(join(repo, "sub/bridge.toml"), options);
    const embedded = await loadDefaultConfig(repo, projectRootsIn, options);
    expect(fromFile.servers).toEqual(embedded.servers);
    expect(fromFile.workspaces).toEqual(embedded.workspaces);
    expect(fromFile.bridge).toEqual(embedded.bridge);
  });

  test("nothing to serve is ConfigInvalid naming lspmcp init", async () => {
    const repo = gitInit(await writeFiles(await tempDir(), { "notes.txt": "" }));
    await expect(loadDefaultConfig(repo, projectRootsIn, { packageRoot: join(REPO), searchPath: "" })).rejects.toThrow(/lspmcp init/);
  });
});

describe("lspmcp's own folders inside the repository", () => {
  /** The installed servers' own files, as a tool cache holds them: Python, TypeScript and Go sources. */
  const CACHE_FILES = {
    "ruff/lib/python3.11/site-packages/ruff/__main__.py": "x: int = 'a'\n",
    "basedpyright/node_modules/basedpyright/index.ts": "export {};\n",
    "build/go/pkg/mod/example.com/dep@v1.0.0/tsconfig.json": "{}",
  };

  /** Plans `repo` with XDG_CACHE_HOME (and XDG_STATE_HOME) set to folders inside it, the tool cache holding gopls. */
  async function planWithCacheIn(repo: string, cacheHome: string): Promise<string[]> {
    const saved = { cache: process.env.XDG_CACHE_HOME, state: process.env.XDG_STATE_HOME };
    process.env.XDG_CACHE_HOME = join(repo, cacheHome);
    process.env.XDG_STATE_HOME = join(repo, "state");
    try {
      await writeFiles(join(repo, cacheHome, "lspmcp"), CACHE_FILES);
      await writeFiles(join(repo, "state/lspmcp"), { "notes/a.sh": "echo\n" });
      const gopls = join(repo, cacheHome, "lspmcp/go/bin/gopls");
      await writeFiles(dirname(gopls), { gopls: "#!/bin/sh\necho v0.23.0\n" });
      chmodSync(gopls, 0o755);
      const plan = await planWith(repo, { packageRoot: REPO, searchPath: process.env.PATH ?? "" });
      return plan.servers.map((server) => server.name);
    } finally {
      for (const [key, value] of [
        ["XDG_CACHE_HOME", saved.cache],
        ["XDG_STATE_HOME", saved.state],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }

  test("a Go repository whose tool cache lives in it (GitLab's .cache) is planned with gopls alone: the cache's files are no sources", async () => {
    const repo = gitInit(await writeFiles(await tempDir(), { "go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n" }));
    expect(await planWithCacheIn(repo, ".cache")).toEqual(["gopls"]);
  });

  test("outside git too, and under a folder name the walk would otherwise enter", async () => {
    const repo = await writeFiles(await tempDir(), { "go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n" });
    expect(await planWithCacheIn(repo, "ci-cache")).toEqual(["gopls"]);
  });
});
