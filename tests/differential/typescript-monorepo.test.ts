import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge } from "../helpers/bridge.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { diagnostics, startKeys, TSC, tscRunFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { pathWithLspmcp, runLspmcp } from "../e2e/helpers/lspmcp-on-path.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";

// Monorepos as they are laid out, zero-config (no bridge.toml: the embedded default, TypeScript
// 7.0.2's native server): every file must be answered under its own project, as that project's
// own CI command reports it (tsc -b from the solution, tsc -p per tsconfig), whatever the bridge
// was asked before it. TypeScript 7's server answers a closed file from the first loaded project
// holding it, so a package importing another package's file (app imports core) once gave that
// file app's options (not strict): core's strict-only errors vanished after app was asked.

const compiler = (strict: boolean, extra = "") =>
  `{ "compilerOptions": { "strict": ${strict}, "target": "es2022", "module": "nodenext", "lib": ["ES2022"], "types": []${extra} }`;

/** A solution tsconfig with references to three composite packages, each with its own `strict`. */
const REFERENCES: Record<string, string> = {
  "package.json": '{ "name": "refs", "private": true, "type": "module" }\n',
  "tsconfig.json": '{ "files": [], "references": [{ "path": "packages/core" }, { "path": "packages/app" }, { "path": "packages/legacy" }] }\n',
  "packages/core/tsconfig.json": `${compiler(true, ', "composite": true, "rootDir": "src", "outDir": "dist"')}, "include": ["src"] }\n`,
  "packages/core/src/index.ts":
    'import { label } from "./label.js";\nexport function parse(input: string | undefined): number {\n  const text: string = input;\n  return Number(text) + label.length;\n}\n',
  "packages/core/src/label.ts": "export const label = 'core';\nexport function loose(value) {\n  return value;\n}\n",
  "packages/app/tsconfig.json": `${compiler(false, ', "composite": true, "rootDir": "src", "outDir": "dist"')}, "include": ["src"], "references": [{ "path": "../core" }] }\n`,
  "packages/app/src/main.ts": 'import { parse } from "../../core/src/index.js";\nconst count: number = parse("1");\nexport const shown: string = count;\n',
  "packages/legacy/tsconfig.json": `${compiler(false, ', "composite": true, "rootDir": "src", "outDir": "dist"')}, "include": ["src"] }\n`,
  "packages/legacy/src/old.ts": 'export function pick(a) {\n  return a.b;\n}\nexport const wrong: number = "s";\n',
  // In no project: the solution holds none itself, and none of its references includes it.
  "scripts/tool.ts": 'const port: number = "8080";\nexport { port };\n',
};

/** Files no project includes: answered under the compiler's defaults, counted apart, not in any project's tsc run. */
const OUTSIDE = ["scripts/tool.ts"];

/** Two packages with a tsconfig each and no references: app (not strict) imports lib (strict). */
const SEPARATE: Record<string, string> = {
  "packages/lib/tsconfig.json": `${compiler(true, ', "noEmit": true')}, "include": ["src"] }\n`,
  "packages/lib/src/lib.ts": "export function twice(x) {\n  return x * 2;\n}\nexport const maybe: string = undefined;\n",
  "packages/app/tsconfig.json": `${compiler(false, ', "noEmit": true')}, "include": ["src"] }\n`,
  "packages/app/src/main.ts": 'import { twice } from "../../lib/src/lib.js";\nexport const doubled: string = twice(2) as number;\n',
};

/** What each project's own CI command reports, per file of that project. */
async function oracle(layout: "references" | "separate", root: string, tsc: string): Promise<string[]> {
  if (layout === "references") {
    // tsc -b writes its outputs: it runs in a copy, so the bridge's workspace stays as committed.
    const copy = join(tempDir("lspmcp-monorepo-build-"), "repo");
    cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
    return startKeys(await tscRunFindings(copy, ["-b"], tsc));
  }
  const findings: Finding[] = [];
  for (const pkg of ["packages/lib", "packages/app"]) {
    // A package's run reports the files it imports from elsewhere too, under its own options:
    // each file counts only in the run of its own tsconfig.
    findings.push(...(await tscRunFindings(root, ["--noEmit", "-p", pkg], tsc)).filter((finding) => finding.path.startsWith(`${pkg}/`)));
  }
  return startKeys(findings);
}

const errorsAndWarnings = (items: readonly Finding[]) =>
  items.filter((item) => (item.severity === "error" || item.severity === "warning") && !OUTSIDE.includes(item.path));

const tsFiles = (files: Record<string, string>) =>
  Object.keys(files)
    .filter((path) => path.endsWith(".ts"))
    .sort();

/** The workspace's own TypeScript, linked in as a project's dependency; 7.0.2 is the pinned one, used when there is none. */
const OWN_TYPESCRIPT: Record<Compiler, string | null> = {
  "7.0.2": null,
  "6.0.3": join(REPO, "node_modules/typescript-6.0"),
  "5.9.3": join(REPO, "node_modules/typescript"),
};
type Compiler = keyof typeof TSC;

describe.each(
  (["7.0.2", "6.0.3", "5.9.3"] as const).flatMap((compiler) => [["references", compiler, REFERENCES] as const, ["separate", compiler, SEPARATE] as const]),
)("a %s monorepo, zero-config: every file under its own project (TypeScript %s)", (layout, compiler, files) => {
  let repo: TempRepo;
  let expected: string[];
  /** Each file's whole answer (every severity) from "." of a fresh bridge. */
  let whole: Map<string, Finding[]>;
  beforeAll(async () => {
    repo = tempRepo({ ...files, ".gitignore": "node_modules/\n" });
    const own = OWN_TYPESCRIPT[compiler];
    if (own !== null) {
      mkdirSync(join(repo.root, "node_modules"));
      symlinkSync(own, join(repo.root, "node_modules/typescript"));
    }
    expected = await oracle(layout, repo.root, TSC[compiler]);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    const bridge = await startBridge(null, {}, { cwd: repo.root });
    try {
      const answer = await diagnostics(bridge, { path: ".", limit: 1000 });
      whole = new Map(tsFiles(files).map((path) => [path, answer.items.filter((item) => item.path === path)]));
    } finally {
      await bridge.close();
    }
  }, 300_000);
  afterAll(() => repo?.remove());

  test('"." and `check` report what each project\'s own tsc reports', async () => {
    expect(startKeys(errorsAndWarnings([...whole.values()].flat()))).toEqual(expected);
    const check = await runLspmcp(["check", "--format", "json"], { cwd: repo.root, path: pathWithLspmcp() });
    // Zero-config says which projects it found (the solution's folder too).
    const folders = [
      ...new Set(
        Object.keys(files)
          .filter((path) => path.endsWith("tsconfig.json"))
          .map((path) => path.split("/").slice(0, -1).join("/") || "."),
      ),
    ].sort();
    expect(check.stderr).toContain(`typescript projects: ${folders.join(", ")}`);
    expect(check.code).toBe(1);
    const report = JSON.parse(check.stdout) as {
      items: Finding[];
      summary: { runs: { server: string; compiler: { version: string; source: string } | null; outside_projects?: number }[] };
    };
    expect(startKeys(errorsAndWarnings(report.items))).toEqual(expected);
    const typescript = report.summary.runs.find((run) => run.server === "typescript");
    // A file no project includes is answered all the same, and counted apart (TypeScript 7 says which project answered).
    const outside = tsFiles(files).filter((path) => OUTSIDE.includes(path));
    if (compiler === "7.0.2") expect(typescript?.outside_projects).toBe(outside.length === 0 ? undefined : outside.length);
    for (const path of outside) expect(report.items.some((item) => item.path === path && item.severity === "error")).toBe(true);
    // The workspace's own compiler answered, where it has one, and it alone: one compiler for
    // every package.
    expect(report.summary.runs.filter((run) => run.server === "typescript")).toHaveLength(1);
    expect(typescript?.compiler).toMatchObject({
      version: compiler,
      source: OWN_TYPESCRIPT[compiler] === null ? "pinned" : "workspace",
    });
  }, 300_000);

  test('any order and any grouping of the files gives each file the same answer as "."', async () => {
    const paths = tsFiles(files);
    // Every order of asking, in calls of any size, each run on a fresh server (what it loaded
    // first is what used to decide): each file's answer equals its answer in ".".
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(paths, { minLength: paths.length, maxLength: paths.length }),
        fc.array(fc.integer({ min: 1, max: paths.length }), { minLength: paths.length, maxLength: paths.length }),
        async (order, sizes) => {
          const bridge = await startBridge(null, {}, { cwd: repo.root });
          try {
            for (let at = 0, call = 0; at < order.length; at += sizes[call++]!) {
              const asked = order.slice(at, at + sizes[call]!);
              const answer = await diagnostics(bridge, { paths: asked, limit: 1000 });
              for (const path of asked) {
                const items = answer.items.filter((item) => item.path === path);
                expect(items, `${path} after ${order.join(", ")}`).toEqual(whole.get(path));
                expect(startKeys(errorsAndWarnings(items))).toEqual(expected.filter((key) => key.startsWith(`${path}:`)));
              }
            }
          } finally {
            await bridge.close();
          }
        },
      ),
      { numRuns: compiler === "7.0.2" ? 6 : 3, seed: layout === "references" ? 47 : 48 },
    );
  }, 600_000);

  // Through project references the server knows which packages use another's exports; packages
  // without references are searched only once their project is loaded (docs/tools.md).
  test.runIf(layout === "references")(
    "navigation crosses packages: a symbol one package exports is found where another uses it",
    async () => {
      const [exporter, user, name] = ["packages/core/src/index.ts", "packages/app/src/main.ts", "parse"];
      const at = (path: string, after = "") => ({ path, ...positionOf(files[path]!, name, after) });
      const bridge = await startBridge(null, {}, { cwd: repo.root });
      try {
        // Asked from the exporting package first: its project does not hold the importer.
        const references = await bridge.ok("references", { ...at(exporter), include_declaration: true });
        expect(references.items.map((item: { path: string }) => item.path)).toContain(user);
        const definition = await bridge.ok("definition", at(user, "= "));
        expect(definition.items.map((item: { path: string }) => item.path)).toEqual([exporter]);
        const rename = await bridge.ok("rename_preview", { ...at(exporter), new_name: `${name}Renamed` });
        expect(JSON.stringify(rename)).toContain(user);
      } finally {
        await bridge.close();
      }
    },
    300_000,
  );

  test("a preview and `check --since` of an edit to the importing package change nothing in the imported one", async () => {
    const importer = "packages/app/src/main.ts";
    const edited = `${files[importer]!}export const extra: number = "x";\n`;
    const bridge = await startBridge(null, {}, { cwd: repo.root });
    try {
      // The importing package first: its project is the first the server loads.
      await diagnostics(bridge, { path: "packages/app", limit: 1000 });
      const introduced = await diagnostics(bridge, { path: ".", changes: [{ path: importer, text: edited }], limit: 1000 });
      expect(introduced.items.map((item) => `${item.path} ${item.code}`)).toEqual([`${importer} 2322`]);
      const resolved = await diagnostics(bridge, { path: ".", changes: [{ path: importer, text: edited }], show: "resolved", limit: 1000 });
      expect(resolved.items).toEqual([]);
      // And the session answers each file as "." of a fresh bridge did.
      const after = await diagnostics(bridge, { path: ".", limit: 1000 });
      for (const path of tsFiles(files)) expect(after.items.filter((item) => item.path === path)).toEqual(whole.get(path));
    } finally {
      await bridge.close();
    }
    if (compiler !== "7.0.2") return;
    writeFileSync(join(repo.root, importer), edited);
    try {
      const check = await runLspmcp(["check", "--since", "HEAD", "--format", "json"], { cwd: repo.root, path: pathWithLspmcp() });
      const report = JSON.parse(check.stdout) as { items: Finding[]; summary: { since: { introduced: number; resolved: number } } };
      expect(report.summary.since).toMatchObject({ introduced: 1, resolved: 0 });
      const extra = report.items.filter((item) => item.path === importer && item.range.start.line === files[importer]!.split("\n").length);
      expect(startKeys(errorsAndWarnings(report.items.filter((item) => !extra.includes(item))))).toEqual(expected);
    } finally {
      writeFileSync(join(repo.root, importer), files[importer]!);
    }
  }, 300_000);

  // On the shared server, package by package from a fresh server: the importing package first (the
  // server then loads the importer's project, which holds the imported package's files, before
  // theirs: the order in which a pull from the wrong project could be kept), then the other way.
  test.each(["the importer first", "the imported first"] as const)(
    'a folder of one package, asked after another package, is answered as in "." (%s)',
    async (order) => {
      // A runtime folder of its own: a fresh shared server for this order, not the other's.
      const env = { XDG_RUNTIME_DIR: tempDir("lspmcp-monorepo-run-") };
      const bridge = await startBridge(null, env, { cwd: repo.root, shared: true });
      try {
        // "packages/app" sorts before the packages it imports ("packages/core", "packages/lib").
        const folders = [...new Set(tsFiles(files).map((path) => path.split("/").slice(0, 2).join("/")))].sort();
        if (order === "the imported first") folders.reverse();
        expect(folders[order === "the importer first" ? 0 : folders.length - 1]).toBe("packages/app");
        for (const folder of folders) {
          const answer = await diagnostics(bridge, { path: folder, limit: 1000 });
          for (const path of tsFiles(files).filter((file) => file.startsWith(`${folder}/`))) {
            expect(
              answer.items.filter((item) => item.path === path),
              `${path}, ${order}`,
            ).toEqual(whole.get(path));
          }
        }
        // It ran on the shared server, found from the checkout as the bridge found its config.
        await expectAttached({ config: null, cwd: repo.root, env }, [bridge]);
      } finally {
        await bridge.close();
      }
    },
    300_000,
  );
});
