import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, startKeys, TSC, tscFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

// The project-level path against the file-by-file path (every file opened, asked and kept open)
// on the same real tree, ajv 8.20.0's sources, for both compilers that can answer it: TypeScript
// 7's native server (its closed files pulled, issue 35) and a 5.9.3 tsserver through
// typescript-language-server (closed files of the loaded project, issue 24). Each pair runs the
// same server with the same settings. For TypeScript 7 the other path is the native server with
// the "standard" adapter (it opens every file and lets the server watch its files); for tsserver
// it is the same adapter asked one file per call (a single file is always answered opened, by
// tsserver's own diagnostics requests on the synced text). Every finding is compared whole
// (range, severity, code, message), suggestions included.
const ROOT = join(REPO, "tests/fixtures/differential/typescript-ajv");
const NATIVE = join(REPO, `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);
const LANGUAGE_SERVER = join(REPO, "node_modules/.bin/typescript-language-server");
const TSSERVER = join(REPO, "node_modules/typescript/lib/tsserver.js");

type Compiler = "7.0.2" | "5.9.3";

function config(path: "project" | "files", compiler: Compiler, root = ROOT): string {
  const server =
    compiler === "7.0.2"
      ? // The profile itself (the pinned package, its adapter choosing the native server), or
        // that server run with no adapter of its own.
        path === "project"
        ? ""
        : `adapter = "standard"\ncommand = ${JSON.stringify(NATIVE)}\n`
      : [
          'adapter = "tsserver"',
          `command = ${JSON.stringify(LANGUAGE_SERVER)}`,
          'args = ["--stdio"]',
          'version = "5.3.0"',
          `version_command = [${JSON.stringify(LANGUAGE_SERVER)}, "--version"]`,
          `initialization_options = { tsserver = { path = ${JSON.stringify(TSSERVER)} } }`,
          "",
        ].join("\n");
  return writeConfig(`
[bridge]
max_result_bytes = 4194304
request_timeout_ms = 600000

[[server]]
name = "typescript"
profile = "typescript"
${server}
[[workspace]]
name = "ajv"
root = ${JSON.stringify(root)}
servers = ["typescript"]
`);
}

/** The source files discovery lists under `root` (git's listing, untracked files included), relative to it. */
function listedSources(root: string): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((path) => /\.[cm]?[jt]sx?$/.test(path));
}

/**
 * "." on the file-by-file path: for TypeScript 7 the "standard" adapter's own folder call; for
 * tsserver every file asked alone, in path order (each answer is one file's, in canonical order).
 */
async function fileByFileAnswer(bridge: Bridge, compiler: Compiler, root: string): Promise<{ items: Finding[]; total: number }> {
  if (compiler === "7.0.2") return diagnostics(bridge, { path: ".", limit: 1000 });
  const items: Finding[] = [];
  for (const path of listedSources(root).sort()) items.push(...(await diagnostics(bridge, { path, limit: 1000 })).items);
  return { items, total: items.length };
}

/** Documents the project path leaves open: one anchor for its one tsconfig, the rest pulled closed or through tsserver's project. */
const ANCHORS: Record<Compiler, number> = { "7.0.2": 1, "5.9.3": 1 };

/** The documents the bridge's one session holds open. */
async function openDocuments(bridge: Bridge): Promise<number> {
  return ((await bridge.ok("session_status")) as { sessions: { open_documents: number }[] }).sessions[0]!.open_documents;
}

describe.each(["7.0.2", "5.9.3"] as const)("project-level diagnostics equal file-by-file diagnostics (ajv 8.20.0, TypeScript %s)", (compiler) => {
  let project: Bridge;
  let fileByFile: Bridge;
  beforeAll(async () => {
    [project, fileByFile] = await Promise.all([startBridge(config("project", compiler)), startBridge(config("files", compiler))]);
  });
  afterAll(async () => {
    await Promise.all([project?.close(), fileByFile?.close()]);
  });

  test('"." answers the same set both ways, and only the file-by-file path leaves every file open', async () => {
    const [fromProject, fromFiles] = await Promise.all([diagnostics(project, { path: ".", limit: 1000 }), fileByFileAnswer(fileByFile, compiler, ROOT)]);
    expect(fromFiles.total).toBeGreaterThan(30);
    expect(findingKeys(fromProject.items)).toEqual(findingKeys(fromFiles.items));
    expect(fromProject.items).toEqual(fromFiles.items);
    // Not only the bridge against itself (for tsserver both paths are the same adapter): the
    // errors are the compiler's own `tsc`'s (suggestions and hints are the server's alone).
    const tsc = await tscFindings(ROOT, TSC[compiler]);
    expect(tsc.length).toBeGreaterThan(10);
    expect(startKeys(fromProject.items.filter((item) => item.severity === "error" || item.severity === "warning"))).toEqual(startKeys(tsc));
    // Which path answered: the project path opens one anchor per project (and keeps it open),
    // file by file opens every file of the folder (and keeps it open).
    expect(await openDocuments(project)).toBe(ANCHORS[compiler]);
    expect(await openDocuments(fileByFile)).toBeGreaterThan(50);
  }, 900_000);

  test("a second call, with nothing changed, gives the same bytes", async () => {
    const first = await project.call("diagnostics", { path: ".", limit: 1000 });
    const second = await project.call("diagnostics", { path: ".", limit: 1000 });
    expect(second).toEqual(first);
  }, 600_000);
});

/**
 * Layouts the project path must recognise or leave to file by file: a configured project, files
 * with no config above them (inferred projects), a file its nearest tsconfig excludes, and a
 * solution-style tsconfig whose files live in a referenced project.
 */
function mixedWorkspace(): string {
  const root = tempDir("lspmcp-project-mixed-");
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const strict = '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }';
  put("app/tsconfig.json", `${strict}, "include": ["src"] }`);
  put("app/src/a.ts", "export function a(x: number): number { return x; }\nexport const bad: string = a(1);\n");
  put("app/src/b.ts", 'import { a } from "./a";\nexport const ok: number = a(2);\nexport const worse: number = a("s");\n');
  put("app/scratch/c.ts", "export const loose = (x) => x;\n");
  put("loose/x.ts", "const y: number = 'no';\nexport {};\n");
  put("loose/y.js", "function f(a) { return a.b.c; }\n");
  put("sol/tsconfig.json", '{ "files": [], "references": [{ "path": "./tsconfig.lib.json" }] }');
  put(
    "sol/tsconfig.lib.json",
    `${strict.replace('"noEmit": true', '"composite": true, "emitDeclarationOnly": true, "declaration": true, "outDir": "out"')}, "include": ["lib"] }`,
  );
  put("sol/lib/l.ts", "export const l: number = 'x';\n");
  put("sol/lib/m.ts", 'import { l } from "./l";\nexport const m: string = l;\n');
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

describe.each(["7.0.2", "5.9.3"] as const)("project-level diagnostics equal file-by-file diagnostics on mixed layouts (TypeScript %s)", (compiler) => {
  const root = mixedWorkspace();
  let project: Bridge;
  let fileByFile: Bridge;
  beforeAll(async () => {
    [project, fileByFile] = await Promise.all([startBridge(config("project", compiler, root)), startBridge(config("files", compiler, root))]);
  });
  afterAll(async () => {
    await Promise.all([project?.close(), fileByFile?.close()]);
  });

  test('"." answers the same set both ways, the project path answering the configured project closed', async () => {
    const [fromProject, fromFiles] = await Promise.all([diagnostics(project, { path: ".", limit: 1000 }), fileByFileAnswer(fileByFile, compiler, root)]);
    expect(new Set(fromFiles.items.map((item) => item.path.split("/")[0])).size).toBe(3);
    expect(fromProject.items).toEqual(fromFiles.items);
    // Not only the bridge against itself: the configured project's errors are tsc's (suggestions
    // are the server's own; c.ts lies outside the project, so tsc never sees it).
    const appTsc = (await tscFindings(join(root, "app"), TSC[compiler])).map((finding) => ({ ...finding, path: `app/${finding.path}` }));
    expect(appTsc.length).toBeGreaterThan(1);
    expect(startKeys(fromProject.items.filter((item) => item.severity !== "hint" && item.path.startsWith("app/src/")))).toEqual(startKeys(appTsc));
    // Which path answered (each keeps what it opened): file by file opens all seven files; the
    // project path answers some closed. Through typescript-language-server it opens six: b.ts is
    // answered from app's project, loaded by its anchor a.ts (c.ts is excluded by its tsconfig,
    // loose/ has none, and sol's files' nearest tsconfig is the solution's, not the project that
    // holds them); a server that answers closed files by pull opens none.
    expect(await openDocuments(fileByFile)).toBe(7);
    expect(await openDocuments(project)).toBeLessThan(7);
  }, 600_000);
});
