import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { pathWithLspmcp, runLspmcp } from "../e2e/helpers/lspmcp-on-path.js";
import { startKeys, TSC, tscRunFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";

// TypeScript 7's API session (whole projects answered in one message per kind of diagnostic)
// against the per-file pulls it replaces, on the same trees: `check --format json` must be the
// same report byte for byte (every finding's range, severity, code and message, in order; the
// summary), and the errors what each project's own tsc reports. LSPMCP_TYPESCRIPT_PER_FILE=1
// forces the per-file lane. The API lane's debug line shows it really answered files.

const compiler = (strict: boolean, extra = "") =>
  `{ "compilerOptions": { "strict": ${strict}, "target": "es2022", "module": "nodenext", "lib": ["ES2022"], "types": []${extra} }`;

/** Modules with nothing to report, so that a project's files are mostly answered by the API. */
const fillers = (folder: string, count: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`${folder}/filler${i}.ts`, `export const filler${i}: number = ${i};\n`]));

/** Files of the shapes a conversion can get wrong; tsc counts their lines as LSP does. */
const SHAPES: Record<string, string> = {
  "tsconfig.json": `${compiler(true, ', "noEmit": true')}, "include": ["src"] }\n`,
  "src/unicode.ts": 'const greeting = "héllo 😀 wörld 𝒳"; export const wrongUnicode: number = "x" + greeting;\n',
  "src/crlf.ts": 'export const first = 1;\r\n// a comment 😀\r\nexport const wrongCrlf: number = "x";\r\n\r\nexport const again: string = 2;\r\n',
  "src/bom.ts": '\uFEFFexport const withBom: number = "x";\nexport const second: string = 1;\n',
  "src/chain.ts":
    "export const handler: (x: string) => void = (x: number) => { void x; };\n" +
    'interface Nested { a: { b: { c: number } } }\nexport const nested: Nested = { a: { b: { c: "no" } } };\n',
  "src/tags.ts": "/** @deprecated use fresh */\nexport function old(): void {}\nold();\nexport async function later() { return 1; }\n",
  "src/importer.ts": 'import { first } from "./crlf.js";\nimport { old } from "./tags.js";\nold();\nexport const wrongImport: string = first;\n',
  ...fillers("src", 6),
};

/**
 * Shapes tsc counts otherwise (it breaks lines at U+2028 and reads a lone CR's lines apart from
 * the tests' parser), a syntax error (tsc then reports nothing else), the style checks as errors
 * (noUnusedLocals and its kin: the pull's preference decides their severity, so their files go by
 * the pull): compared between the lanes only.
 */
const LANES_ONLY: Record<string, string> = {
  "tsconfig.json": `${compiler(true, ', "noEmit": true, "noUnusedLocals": true, "noUnusedParameters": true, "noFallthroughCasesInSwitch": true, "noImplicitReturns": true, "allowUnreachableCode": false, "allowUnusedLabels": false')}, "include": ["src"] }\n`,
  "src/separator.ts": 'export const separated = "a\u2028b"; export const wrongSeparated: number = "x";\n',
  "src/cr.ts": 'export const crOnly = 1;\r// a comment\rexport const wrongCr: number = "x";\r',
  "src/syntax.ts": "export const broken = ;\nexport const wrongToo: number = 'x';\n",
  "src/style.ts":
    'import { crOnly } from "./cr.js";\n' +
    "export function style(kind: number, unusedParameter: string) {\n  const { a, b } = { a: 1, b: 2 };\n" +
    "  switch (kind) {\n    case 0:\n      kind++;\n    case 1:\n      return 1;\n  }\n  if (kind > 2) return 2;\n}\n",
  ...fillers("src", 4),
};

/** A solution with references to three composite packages (declaration diagnostics asked too), one importing another. */
const REFERENCES: Record<string, string> = {
  "package.json": '{ "name": "refs", "private": true, "type": "module" }\n',
  "tsconfig.json": '{ "files": [], "references": [{ "path": "packages/core" }, { "path": "packages/app" }, { "path": "packages/legacy" }] }\n',
  "packages/core/tsconfig.json": `${compiler(true, ', "composite": true, "rootDir": "src", "outDir": "dist"')}, "include": ["src"] }\n`,
  "packages/core/src/index.ts":
    'import { label } from "./label.js";\nexport function parse(input: string | undefined): number {\n  const text: string = input;\n  return Number(text) + label.length;\n}\n',
  "packages/core/src/label.ts": "export const label = 'core';\nexport function loose(value) {\n  return value;\n}\n",
  // Declaration emit's own error (TS4094): a private member of an exported anonymous class.
  "packages/core/src/hidden.ts": "export const Mixin = class {\n  private secret = 1;\n};\nexport const wrong: number = 'x';\n",
  ...fillers("packages/core/src", 3),
  "packages/app/tsconfig.json": `${compiler(false, ', "composite": true, "rootDir": "src", "outDir": "dist"')}, "include": ["src"], "references": [{ "path": "../core" }] }\n`,
  "packages/app/src/main.ts": 'import { parse } from "../../core/src/index.js";\nconst count: number = parse("1");\nexport const shown: string = count;\n',
  ...fillers("packages/app/src", 3),
  "packages/legacy/tsconfig.json": `${compiler(false, ', "composite": true, "rootDir": "src", "outDir": "dist"')}, "include": ["src"] }\n`,
  "packages/legacy/src/old.ts": 'export function pick(a) {\n  return a.b;\n}\nexport const wrong: number = "s";\n',
  ...fillers("packages/legacy/src", 3),
  // In no project: the solution holds none itself, and none of its references includes it.
  "scripts/tool.ts": 'const port: number = "8080";\nexport { port };\n',
};

/** Two packages with a tsconfig each and no references: app (not strict) imports lib (strict). */
const SEPARATE: Record<string, string> = {
  "packages/lib/tsconfig.json": `${compiler(true, ', "noEmit": true')}, "include": ["src"] }\n`,
  "packages/lib/src/lib.ts": "export function twice(x) {\n  return x * 2;\n}\nexport const maybe: string = undefined;\n",
  ...fillers("packages/lib/src", 3),
  "packages/app/tsconfig.json": `${compiler(false, ', "noEmit": true')}, "include": ["src"] }\n`,
  "packages/app/src/main.ts": 'import { twice } from "../../lib/src/lib.js";\nexport const doubled: string = twice(2) as number;\n',
  ...fillers("packages/app/src", 3),
};

interface Report {
  readonly items: readonly (Finding & { server: string })[];
}

/** `check --format json` in `root` by the lane asked, with the debug log that says what the API lane answered. */
async function check(root: string, lane: "api" | "per-file"): Promise<{ code: number | null; stdout: string; answered: number }> {
  const env: Record<string, string> = { LSPMCP_LOG_LEVEL: "debug", ...(lane === "per-file" ? { LSPMCP_TYPESCRIPT_PER_FILE: "1" } : {}) };
  const run = await runLspmcp(["check", "--format", "json"], { cwd: root, path: pathWithLspmcp(), env });
  const answered = [...run.stderr.matchAll(/answered a whole project \{[^\n]*"files":(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  return { code: run.code, stdout: run.stdout, answered };
}

const errors = (items: readonly (Finding & { server: string })[], outside: readonly string[] = []) =>
  items.filter((item) => item.server === "typescript" && (item.severity === "error" || item.severity === "warning") && !outside.includes(item.path));

const LAYOUTS: readonly {
  name: string;
  files: () => Record<string, string>;
  /** What the projects' own tsc runs report (start positions), or null: compared between the lanes only. */
  oracle: ((root: string) => Promise<string[]>) | null;
  outside?: readonly string[];
}[] = [
  { name: "shapes", files: () => SHAPES, oracle: async (root) => startKeys(await tscRunFindings(root, ["--noEmit", "-p", "."])) },
  { name: "lanes only", files: () => LANES_ONLY, oracle: null },
  {
    name: "references monorepo",
    files: () => REFERENCES,
    oracle: async (root) => {
      // tsc -b writes its outputs: it runs in a copy, so the workspace stays as committed.
      const copy = join(tempDir("lspmcp-api-lane-build-"), "repo");
      cpSync(root, copy, { recursive: true });
      return startKeys(await tscRunFindings(copy, ["-b"], TSC["7.0.2"]));
    },
    outside: ["scripts/tool.ts"],
  },
  {
    name: "separate packages",
    files: () => SEPARATE,
    oracle: async (root) => {
      const findings: Finding[] = [];
      for (const pkg of ["packages/lib", "packages/app"])
        findings.push(...(await tscRunFindings(root, ["--noEmit", "-p", pkg])).filter((finding) => finding.path.startsWith(`${pkg}/`)));
      return startKeys(findings);
    },
  },
  {
    name: "ajv 8.20.0",
    files: () => {
      const root = join(REPO, "tests/fixtures/differential/typescript-ajv");
      const names = readdirSync(root, { recursive: true }) as string[];
      return Object.fromEntries(
        names.filter((name) => /\.(ts|json)$/.test(name) && !name.includes("node_modules")).map((name) => [name, readFileSync(join(root, name), "utf8")]),
      );
    },
    oracle: async (root) => startKeys(await tscRunFindings(root, ["--noEmit", "-p", "."])),
  },
];

describe.each(LAYOUTS)("TypeScript 7's API lane against its per-file pulls: $name", ({ files, oracle, outside }) => {
  let repo: TempRepo | undefined;
  afterAll(() => repo?.remove());

  test("`check --format json` is the same report by either lane, and each project's tsc's errors", async () => {
    repo = tempRepo({ ...files(), ".gitignore": "node_modules/\ndist/\n" });
    const api = await check(repo.root, "api");
    const perFile = await check(repo.root, "per-file");
    expect(perFile.answered).toBe(0);
    expect(api.answered).toBeGreaterThan(0);
    expect(api.code).toBe(perFile.code);
    expect(api.stdout).toBe(perFile.stdout);
    if (oracle === null) return;
    const report = JSON.parse(api.stdout) as Report;
    expect(startKeys(errors(report.items, outside))).toEqual(await oracle(repo.root));
  }, 300_000);
});
