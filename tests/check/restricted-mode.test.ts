import { chmodSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startBridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, pyrightCliFindings, startKeys, tscFindings, type Finding } from "../helpers/differential.js";
import { requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// Restricted mode runs none of the checkout's own code. The checkout plants three ways a server
// would run it, each writing a marker file when it runs: a graphql.config.js (graphql loads it),
// a .venv whose interpreter pyrefly asks for its search paths, and a node_modules/typescript whose
// tsserver the typescript profile would answer with. Unrestricted, each runs (so each is a real
// way in); restricted, none does, and every file they would have answered is listed as not checked.

/** The files that write a marker under MARKERS when they run, and what each way answers. */
const PLANTED: Record<string, string> = {
  "graphql.config.js":
    'require("fs").writeFileSync(require("path").join(__dirname, "markers", "graphql"), "ran");\nmodule.exports = { schema: "schema.graphql", documents: "*.graphql" };\n',
  "schema.graphql": "type Query { a: Int }\n",
  "query.graphql": "query { a b }\n",
  "pyrefly.toml": "",
  "app.py": 'x: int = "a"\n',
  "tsconfig.json": "{}\n",
  "app.ts": 'export const n: number = "a";\n',
  ".gitignore": "node_modules/\n.venv/\nmarkers/\n",
};

/** Not committed (ignored, as installed things are): the environment and the compiler. */
function plantInstalled(root: string): void {
  const file = (path: string, text: string, mode = 0o644) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    chmodSync(join(root, path), mode);
  };
  file(".venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\n");
  file(".venv/bin/python", `#!/bin/sh\necho ran > "${join(root, "markers/python")}"\nexec /usr/bin/python3 "$@"\n`, 0o755);
  symlinkSync("python", join(root, ".venv/bin/python3"));
  file("node_modules/typescript/package.json", '{ "name": "typescript", "version": "5.9.3" }\n');
  file("node_modules/typescript/lib/tsserver.js", `require("fs").writeFileSync(${JSON.stringify(join(root, "markers/typescript"))}, "ran");\n`);
  mkdirSync(join(root, "markers"), { recursive: true });
}

const markers = () => readdirSync(join(repo.root, "markers")).sort();

interface Report {
  items: unknown[];
  summary: { not_checked?: { server: string; path: string; reason: string }[] };
}

let repo: TempRepo;
beforeAll(() => {
  requireBuild();
  requireCachedTool("pyrefly/bin/pyrefly");
  repo = tempRepo(PLANTED);
  plantInstalled(repo.root);
});
afterEach(() => {
  for (const marker of readdirSync(join(repo.root, "markers"))) rmSync(join(repo.root, "markers", marker));
});
afterAll(() => repo?.remove());

describe("each way the checkout's code runs, unrestricted", () => {
  test("pyrefly runs the .venv's interpreter, graphql loads graphql.config.js, typescript runs node_modules/typescript", async () => {
    for (const file of ["app.py", "query.graphql", "app.ts"]) await runCheckCli([file], { cwd: repo.root });
    expect(markers()).toEqual(["graphql", "python", "typescript"]);
  });
});

describe("restricted mode", () => {
  const NOT_CHECKED = [
    ["typescript", "app.ts", "the project's own TypeScript compiler (node_modules/typescript)"],
    ["pyrefly", "app.py", "the Python interpreter of the checkout's environment (.venv)"],
    ["typescript", "graphql.config.js", "the project's own TypeScript compiler (node_modules/typescript)"],
    ["graphql", "query.graphql", "the checkout's JavaScript configuration (graphql.config.js)"],
    ["graphql", "schema.graphql", "the checkout's JavaScript configuration (graphql.config.js)"],
  ];

  for (const [how, args, env] of [
    ["--restricted", ["--restricted", "--format", "json"], {}],
    ["LSPMCP_RESTRICTED=1", ["--format", "json"], { LSPMCP_RESTRICTED: "1" }],
  ] as const) {
    test(`${how}: none of the three runs, and every file they would have answered is listed as not checked, with the reason`, async () => {
      const result = await runCheckCli(args, { cwd: repo.root, env });
      expect(result.code, result.stderr).toBe(0);
      expect(markers()).toEqual([]);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.items).toEqual([]);
      const listed = (report.summary.not_checked ?? []).map(({ server, path, reason }) => [server, path, reason]);
      for (const [server, path, what] of NOT_CHECKED) {
        expect(listed, `${server} ${path}`).toContainEqual([
          server,
          path,
          `restricted mode: ${server} would run ${what}, and restricted mode runs none of the checkout's code`,
        ]);
      }
      expect(listed.map(([server, path]) => `${server} ${path}`).sort()).toEqual(
        ["pyrefly app.py", "typescript app.ts", "typescript graphql.config.js", "graphql query.graphql", "graphql schema.graphql"].sort(),
      );
    });
  }

  test("serve with LSPMCP_RESTRICTED=1: a tool call on such a file fails to start the server, saying why, and runs nothing", async () => {
    const bridge = await startBridge(null, { LSPMCP_RESTRICTED: "1" }, { cwd: repo.root });
    try {
      for (const path of ["app.ts", "app.py", "query.graphql"]) {
        const error = await bridge.fail("document_symbols", { path });
        expect(error.code).toBe("ServerStartFailed");
        expect(error.message).toContain("restricted mode:");
      }
      expect(markers()).toEqual([]);
    } finally {
      await bridge.close();
    }
  });

  test("a checkout's bridge.toml that runs a program of its own is refused, trusted or not", async () => {
    const config = join(repo.root, "bridge.toml");
    writeFileSync(
      config,
      '[[server]]\nname = "sh"\ncommand = "/bin/sh"\nversion = "1"\nlanguages = [{ id = "x", extensions = [".x"] }]\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["sh"]\n',
    );
    try {
      const result = await runCheckCli(["--restricted", "--trust-config"], { cwd: repo.root });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("restricted mode runs none of a checkout's own programs");
    } finally {
      rmSync(config);
    }
  });
});

describe("TypeScript project by project: web/ brings its own compiler, tools/ has none", () => {
  // Only web's files need the checkout's compiler: tools/ is answered by the pinned one, as it is
  // unrestricted, and web's files are listed, never answered by another compiler.
  const WEB_REASON =
    "restricted mode: typescript would run the project's own TypeScript compiler (web/node_modules/typescript), and restricted mode runs none of the checkout's code";
  let split: TempRepo;
  beforeAll(() => {
    split = tempRepo({
      ".gitignore": "node_modules/\nmarkers/\n",
      "web/package.json": '{ "name": "web", "private": true, "devDependencies": { "typescript": "5.9.3" } }\n',
      "web/tsconfig.json": '{ "include": ["src"] }\n',
      "web/src/app.ts": 'export const n: number = "a";\n',
      "web/src/util.ts": "export function half(x) {\n  return x / 2;\n}\n",
      "tools/tsconfig.json": '{ "compilerOptions": { "noEmit": true } }\n',
      "tools/gen.ts": "export function double(a) {\n  return a * 2;\n}\nexport const s: string = 1;\n",
    });
    mkdirSync(join(split.root, "markers"));
    mkdirSync(join(split.root, "web/node_modules/typescript/lib"), { recursive: true });
    writeFileSync(join(split.root, "web/node_modules/typescript/package.json"), '{ "name": "typescript", "version": "5.9.3" }\n');
    writeFileSync(
      join(split.root, "web/node_modules/typescript/lib/tsserver.js"),
      `require("fs").writeFileSync(${JSON.stringify(join(split.root, "markers/typescript"))}, "ran");\n`,
    );
  });
  afterEach(() => {
    for (const marker of readdirSync(join(split.root, "markers"))) rmSync(join(split.root, "markers", marker));
  });
  afterAll(() => split?.remove());
  const ran = () => readdirSync(join(split.root, "markers"));
  const tools = async () => startKeys((await tscFindings(join(split.root, "tools"))).map((one) => ({ ...one, path: `tools/${one.path}` })));

  test("check --restricted: tools/ equals tsc 7's own answer, web/'s files are listed with the reason, and web's compiler never runs", async () => {
    const expected = await tools();
    expect(expected.length).toBe(2);
    const run = await runCheckCli(["--restricted", "--format", "json"], { cwd: split.root });
    expect(run.code, run.stderr).toBe(1);
    expect(ran()).toEqual([]);
    const report = JSON.parse(run.stdout) as { items: Finding[]; summary: Report["summary"] & { runs: { server: string; version: string }[] } };
    expect(startKeys(report.items)).toEqual(expected);
    expect((report.summary.not_checked ?? []).map(({ server, path, reason }) => [server, path, reason])).toEqual([
      ["typescript", "web/src/app.ts", WEB_REASON],
      ["typescript", "web/src/util.ts", WEB_REASON],
    ]);
    expect(report.summary.runs.filter((one) => one.server === "typescript").map((one) => one.version)).toEqual(["7.0.2"]);
    // Unrestricted, web's own compiler is what answers web (so the marker is a real way in).
    await runCheckCli(["web/src/app.ts"], { cwd: split.root });
    expect(ran()).toEqual(["typescript"]);
  }, 180_000);

  test("serve restricted: each file alone and the whole folder agree; a tool on a web file fails to start, saying why", async () => {
    const expected = await tools();
    const bridge = await startBridge(null, { LSPMCP_RESTRICTED: "1" }, { cwd: split.root });
    try {
      const alone = await diagnostics(bridge, { path: "tools/gen.ts" });
      expect(startKeys(alone.items)).toEqual(expected);
      const whole = (await diagnostics(bridge, { path: "." })) as Awaited<ReturnType<typeof diagnostics>> & { not_checked?: string[] };
      expect(startKeys(whole.items)).toEqual(expected);
      expect(whole.not_checked).toEqual([`web/src/app.ts (typescript): ${WEB_REASON}`, `web/src/util.ts (typescript): ${WEB_REASON}`]);
      const error = await bridge.fail("document_symbols", { path: "web/src/app.ts" });
      expect(error.code).toBe("ServerStartFailed");
      expect(error.message).toContain(WEB_REASON);
      expect(await bridge.ok("document_symbols", { path: "tools/gen.ts" })).toBeTruthy();
      expect(ran()).toEqual([]);
    } finally {
      await bridge.close();
    }
  }, 180_000);
});

describe("Python root by root: a/ has its own .venv, b/ has none", () => {
  // basedpyright is handed its configuration roots, so a root left out of them is one it never
  // sets up: only a/'s files are listed, and b/ is answered as its own CLI answers it. pyrefly
  // finds its configurations itself and runs the interpreter of every one its indexing finds,
  // asked of a file or not, so its whole workspace is listed.
  const reason = (server: string) =>
    `restricted mode: ${server} would run the Python interpreter of the checkout's environment (a/.venv), and restricted mode runs none of the checkout's code`;
  const config = (server: string) =>
    `[[server]]\nname = "${server}"\nprofile = "${server}"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["${server}"]\n`;
  let roots: TempRepo;
  beforeAll(() => {
    requireCachedTool("basedpyright/node_modules/.bin/basedpyright");
    const root = (name: string) => ({
      [`${name}/pyproject.toml`]: `[project]\nname = "${name}"\nversion = "0"\n\n[tool.basedpyright]\n\n[tool.pyrefly]\n`,
      [`${name}/main.py`]: 'x: int = "a"\n',
    });
    roots = tempRepo({ ".gitignore": ".venv/\nmarkers/\nbridge.toml\n", ...root("a"), ...root("b") });
    mkdirSync(join(roots.root, "markers"));
    mkdirSync(join(roots.root, "a/.venv/bin"), { recursive: true });
    writeFileSync(join(roots.root, "a/.venv/pyvenv.cfg"), "home = /usr/bin\ninclude-system-site-packages = false\n");
    writeFileSync(join(roots.root, "a/.venv/bin/python"), `#!/bin/sh\necho ran > "${join(roots.root, "markers/python")}"\nexec /usr/bin/python3 "$@"\n`);
    chmodSync(join(roots.root, "a/.venv/bin/python"), 0o755);
    symlinkSync("python", join(roots.root, "a/.venv/bin/python3"));
  });
  afterEach(() => {
    for (const marker of readdirSync(join(roots.root, "markers"))) rmSync(join(roots.root, "markers", marker));
  });
  afterAll(() => roots?.remove());
  const ran = () => readdirSync(join(roots.root, "markers"));

  test("basedpyright: a/'s interpreter never runs and a/'s files are listed; b/ equals basedpyright's CLI run in b/", async () => {
    writeFileSync(join(roots.root, "bridge.toml"), config("basedpyright"));
    const cli = await pyrightCliFindings(join(roots.root, "b"), requireCachedTool("basedpyright/node_modules/.bin/basedpyright"));
    expect(cli.length).toBeGreaterThan(0);
    const run = await runCheckCli(["--restricted", "--format", "json"], { cwd: roots.root });
    expect(run.code, run.stderr).toBe(1);
    expect(ran()).toEqual([]);
    const report = JSON.parse(run.stdout) as { items: Finding[]; summary: Report["summary"] };
    expect(findingKeys(report.items)).toEqual(findingKeys(cli.map((finding) => ({ ...finding, path: `b/${finding.path}` }))));
    expect((report.summary.not_checked ?? []).map(({ path, reason }) => [path, reason])).toEqual([["a/main.py", reason("basedpyright")]]);
    // A tool call on a/'s file starts nothing either; one on b/'s is answered.
    const bridge = await startBridge(null, { LSPMCP_RESTRICTED: "1" }, { cwd: roots.root });
    try {
      const error = await bridge.fail("hover", { path: "a/main.py", line: 1, column: 1 });
      expect(error.code).toBe("ServerStartFailed");
      expect(error.message).toContain(reason("basedpyright"));
      expect(await bridge.ok("hover", { path: "b/main.py", line: 1, column: 1 })).toBeTruthy();
      expect(ran()).toEqual([]);
    } finally {
      await bridge.close();
    }
    // Unrestricted, basedpyright runs a/'s interpreter (so the marker is a real way in).
    await runCheckCli(["a/main.py"], { cwd: roots.root });
    expect(ran()).toEqual(["python"]);
  }, 240_000);

  test("pyrefly: its interpreter never runs, and every file of the workspace is listed", async () => {
    writeFileSync(join(roots.root, "bridge.toml"), config("pyrefly"));
    const run = await runCheckCli(["--restricted", "--format", "json"], { cwd: roots.root });
    expect(run.code, run.stderr).toBe(0);
    expect(ran()).toEqual([]);
    const listed = (JSON.parse(run.stdout) as Report).summary.not_checked ?? [];
    expect(listed.map(({ path, reason }) => [path, reason])).toEqual([
      ["a/main.py", reason("pyrefly")],
      ["b/main.py", reason("pyrefly")],
    ]);
    // Unrestricted, pyrefly runs a/'s interpreter though it is asked of b/'s file alone.
    await runCheckCli(["b/main.py"], { cwd: roots.root });
    expect(ran()).toEqual(["python"]);
  }, 240_000);
});

describe("a crate's build script, under bacon-ls's cargo check", () => {
  let crate: TempRepo;
  beforeAll(() => {
    requireCachedTool("bacon-ls/bin/bacon-ls");
    crate = tempRepo({
      "bridge.toml": '[[server]]\nname = "bacon-ls"\nprofile = "bacon-ls"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["bacon-ls"]\n',
      "Cargo.toml": '[package]\nname = "planted"\nversion = "0.1.0"\nedition = "2021"\n',
      "build.rs": 'fn main() {\n    std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/markers/build"), "ran").unwrap();\n}\n',
      "src/lib.rs": "pub fn f() -> i32 {\n    1\n}\n",
      "markers/.keep": "",
    });
  });
  afterAll(() => crate?.remove());
  const built = () => readdirSync(join(crate.root, "markers")).includes("build");

  test("unrestricted, cargo check runs it; restricted, nothing is built and the crate's files are not checked, with the reason", async () => {
    const restricted = await runCheckCli(["--restricted", "--format", "json"], { cwd: crate.root });
    expect(restricted.code, restricted.stderr).toBe(0);
    expect(built()).toBe(false);
    const listed = (JSON.parse(restricted.stdout) as Report).summary.not_checked ?? [];
    expect(listed.map(({ path }) => path)).toEqual(["build.rs", "src/lib.rs"]);
    for (const { reason } of listed)
      expect(reason).toContain("restricted mode: bacon-ls would run cargo check, which builds and runs the crates' build scripts");
    const unrestricted = await runCheckCli([], { cwd: crate.root });
    expect(unrestricted.code, unrestricted.stderr).toBe(0);
    expect(built()).toBe(true);
  });
});

describe("a crate's build script, under rust-analyzer", () => {
  let crate: TempRepo;
  beforeAll(() => {
    requireCachedTool("rust-analyzer/bin/rust-analyzer");
    crate = tempRepo({
      ".gitignore": "markers/\n",
      "Cargo.toml": '[package]\nname = "planted"\nversion = "0.1.0"\nedition = "2021"\n',
      "build.rs": 'fn main() {\n    std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/markers/build"), "ran").unwrap();\n}\n',
      "src/lib.rs": "pub fn f() -> i32 {\n    1\n}\n",
    });
    mkdirSync(join(crate.root, "markers"));
  });
  afterAll(() => crate?.remove());
  const built = () => readdirSync(join(crate.root, "markers")).includes("build");

  test("unrestricted, rust-analyzer builds and runs it; restricted, nothing is built and the crate's files are not checked, with the reason", async () => {
    const restricted = await runCheckCli(["--restricted", "--format", "json"], { cwd: crate.root });
    expect(restricted.code, restricted.stderr).toBe(0);
    expect(built()).toBe(false);
    const listed = (JSON.parse(restricted.stdout) as Report).summary.not_checked ?? [];
    expect(listed.map(({ server, path }) => `${server} ${path}`)).toEqual(["rust-analyzer build.rs", "rust-analyzer src/lib.rs"]);
    for (const { reason } of listed)
      expect(reason).toBe(
        "restricted mode: rust-analyzer would run cargo, which builds and runs the crates' build scripts and proc macros, and restricted mode runs none of the checkout's code",
      );
    const unrestricted = await runCheckCli([], { cwd: crate.root });
    expect(unrestricted.code, unrestricted.stderr).toBe(0);
    expect(built()).toBe(true);
  }, 300_000);
});

describe("svelte.config.js, which svelte-language-server loads", () => {
  let app: TempRepo;
  beforeAll(() => {
    app = tempRepo({
      "package.json": '{ "type": "module" }\n',
      "svelte.config.js": 'import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./markers/svelte", import.meta.url), "ran");\nexport default {};\n',
      "App.svelte": "<script>let n = 1;</script>\n<p>{n}</p>\n",
      "markers/.keep": "",
    });
  });
  afterAll(() => app?.remove());
  const loaded = () => readdirSync(join(app.root, "markers")).includes("svelte");

  test("unrestricted, it runs; restricted, it does not, and App.svelte is not checked, with the reason", async () => {
    const restricted = await runCheckCli(["--restricted", "--format", "json", "App.svelte"], { cwd: app.root });
    expect(restricted.code, restricted.stderr).toBe(0);
    expect(loaded()).toBe(false);
    expect((JSON.parse(restricted.stdout) as Report).summary.not_checked).toEqual([
      expect.objectContaining({
        server: "svelte",
        path: "App.svelte",
        reason: expect.stringContaining("the checkout's Svelte configuration (svelte.config.js)"),
      }),
    ]);
    await runCheckCli(["App.svelte"], { cwd: app.root });
    expect(loaded()).toBe(true);
  });
});
