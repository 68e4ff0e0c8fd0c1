import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { startKeys, TSC, tscRunFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { pathWithLspmcp, runLspmcp } from "../e2e/helpers/lspmcp-on-path.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";

// A monorepo built from real code nobody here wrote, zero-config: ajv 8.20.0's sources as one
// package with its own tsconfig (as vendored: strict, commonjs), a consumer with a much stricter
// tsconfig of its own that imports ajv's sources by relative path, and a plain JavaScript package
// checked through a jsconfig. The consumer's program holds ajv's files under the consumer's
// options, where tsc reports about twice as many errors in them: a server that answers an ajv file
// from the consumer's project, because the consumer was asked first, gives ajv the wrong answer.
// The truth is each package's own `tsc --noEmit -p`, each file counted only in its own package's run.

const AJV = join(REPO, "tests/fixtures/differential/typescript-ajv");

/** ajv's sources, licence and tsconfig, as vendored, under `packages/ajv`. */
function vendoredAjv(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const path of ["LICENSE", "tsconfig.json", ...(readdirSync(join(AJV, "lib"), { recursive: true }) as string[]).map((name) => join("lib", name))]) {
    if (statSync(join(AJV, path)).isFile()) files[join("packages/ajv", path)] = readFileSync(join(AJV, path), "utf8");
  }
  return files;
}

/** The consumer: every strictness flag ajv's own tsconfig leaves off, and four seeded errors of its own. */
const CONSUMER: Record<string, string> = {
  "packages/consumer/tsconfig.json": `${JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        noUncheckedIndexedAccess: true,
        noImplicitReturns: true,
        target: "es2022",
        module: "preserve",
        moduleResolution: "bundler",
        noEmit: true,
        types: [],
        lib: ["es2022"],
      },
      include: ["src"],
    },
    null,
    2,
  )}\n`,
  "packages/consumer/src/validate.ts": [
    'import Ajv from "../../ajv/lib/ajv"',
    'import type {ErrorObject} from "../../ajv/lib/types"',
    "",
    "export interface Options {",
    "  strict?: boolean",
    "}",
    "",
    "export function validator(schema: object, options: Options = {}) {",
    "  const ajv = new Ajv({strict: options.strict})",
    "  return ajv.compile(schema)",
    "}",
    "",
    "export function firstError(errors: ErrorObject[]): string {",
    "  const first = errors[0]",
    "  return first.message",
    "}",
    "",
  ].join("\n"),
  "packages/consumer/src/main.ts": [
    'import {validator, firstError} from "./validate"',
    "",
    "const unused = 1",
    'const check = validator({type: "string"})',
    "export const valid: boolean = check(42)",
    "export const message: number = firstError(check.errors ?? [])",
    "",
  ].join("\n"),
};

/** A JavaScript package type-checked through its jsconfig, with two seeded errors. */
const PLAIN: Record<string, string> = {
  "packages/plain/jsconfig.json":
    '{\n  "compilerOptions": { "checkJs": true, "allowJs": true, "noEmit": true, "target": "es2022", "module": "commonjs", "types": [], "lib": ["es2022"] },\n  "include": ["src"]\n}\n',
  "packages/plain/src/index.js":
    "/** @param {number} n */\nfunction square(n) {\n  return n * n\n}\n\n/** @type {string} */\nconst label = square(3)\n\nmodule.exports = {label, shout: label.toUpperCase(1)}\n",
};

/** Each package and the project its own CI command checks. */
const PACKAGES = [
  { folder: "packages/ajv", project: "packages/ajv" },
  { folder: "packages/consumer", project: "packages/consumer" },
  { folder: "packages/plain", project: "packages/plain/jsconfig.json" },
] as const;

const FILES: Record<string, string> = { ...vendoredAjv(), ...CONSUMER, ...PLAIN, ".gitignore": "node_modules/\n" };
const SOURCES = Object.keys(FILES)
  .filter((path) => /\.(ts|js)$/.test(path))
  .sort();

/** What each package's own `tsc --noEmit -p` reports at its own files. */
async function oracle(root: string, tsc: string): Promise<string[]> {
  const findings: Finding[] = [];
  for (const { folder, project } of PACKAGES) {
    // The consumer's run reports ajv's files too, under the consumer's options: not ajv's answer.
    findings.push(...(await tscRunFindings(root, ["--noEmit", "-p", project], tsc)).filter((finding) => finding.path.startsWith(`${folder}/`)));
  }
  return startKeys(findings);
}

/**
 * Every finding of a `diagnostics` call, page by page: a page holds what fits the zero-config
 * result cap (ajv's files carry long messages), as `ResultTooLarge` says.
 */
async function allFindings(bridge: Bridge, args: Record<string, unknown>): Promise<Finding[]> {
  const items: Finding[] = [];
  let limit = 1000;
  for (;;) {
    const result = (await bridge.client.callTool({ name: "diagnostics", arguments: { ...args, offset: items.length, limit } }, undefined, {
      timeout: 600_000,
    })) as { isError?: boolean; content: { text: string }[]; structuredContent?: { items: Finding[]; total: number } };
    if (result.isError) {
      const { error } = JSON.parse(result.content[0]!.text) as { error: { code: string; details: { fits?: number } } };
      if (error.code !== "ResultTooLarge" || !error.details.fits) throw new Error(`diagnostics failed: ${result.content[0]!.text}`);
      limit = error.details.fits;
      continue;
    }
    const page = result.structuredContent!;
    items.push(...page.items);
    if (page.items.length === 0 || items.length >= page.total) return items;
  }
}

const errorsAndWarnings = (items: readonly Finding[]) => items.filter((item) => item.severity === "error" || item.severity === "warning");

/** The workspace's own TypeScript, linked in as a dependency; with none, the pinned 7.0.2 answers. */
const OWN_TYPESCRIPT = { "7.0.2": null, "5.9.3": join(REPO, "node_modules/typescript") } as const;

describe.each(["7.0.2", "5.9.3"] as const)("ajv, a stricter consumer and a JavaScript package as one monorepo, zero-config (TypeScript %s)", (compiler) => {
  let repo: TempRepo;
  let expected: string[];
  /** Each file's whole answer (every severity) from "." of a fresh bridge. */
  let whole: Map<string, Finding[]>;
  beforeAll(async () => {
    repo = tempRepo(FILES);
    const own = OWN_TYPESCRIPT[compiler];
    if (own !== null) {
      mkdirSync(join(repo.root, "node_modules"));
      symlinkSync(own, join(repo.root, "node_modules/typescript"));
    }
    expected = await oracle(repo.root, TSC[compiler]);
    // Every package has errors of its own, ajv's in many files: a partial answer cannot pass.
    for (const { folder } of PACKAGES) expect(expected.filter((key) => key.startsWith(`${folder}/`)).length, folder).toBeGreaterThanOrEqual(2);
    expect(new Set(expected.map((key) => key.split(":")[0])).size).toBeGreaterThan(8);
    const bridge = await startBridge(null, {}, { cwd: repo.root });
    try {
      const items = await allFindings(bridge, { path: "." });
      whole = new Map(SOURCES.map((path) => [path, items.filter((item) => item.path === path)]));
    } finally {
      await bridge.close();
    }
  }, 600_000);
  afterAll(() => repo?.remove());

  test('"." and `check` report what each package\'s own tsc reports', async () => {
    expect(startKeys(errorsAndWarnings([...whole.values()].flat()))).toEqual(expected);
    const check = await runLspmcp(["check", "--format", "json"], { cwd: repo.root, path: pathWithLspmcp() });
    expect(check.code, check.stderr).toBe(1);
    const report = JSON.parse(check.stdout) as {
      items: Finding[];
      summary: { runs: { server: string; compiler: { version: string; source: string } | null }[] };
    };
    // ajv's .json files are the JSON server's, which tsc does not check.
    expect(startKeys(errorsAndWarnings(report.items.filter((item) => SOURCES.includes(item.path))))).toEqual(expected);
    expect(report.summary.runs.filter((run) => run.server === "typescript")).toHaveLength(1);
    expect(report.summary.runs.find((run) => run.server === "typescript")?.compiler).toMatchObject({
      version: compiler,
      source: OWN_TYPESCRIPT[compiler] === null ? "pinned" : "workspace",
    });
  }, 600_000);

  test("the consumer's folder asked first, then a folder of ajv it imports, ajv's and the plain package's: every file answered as in \".\"", async () => {
    const bridge = await startBridge(null, {}, { cwd: repo.root });
    try {
      // The consumer's project, loaded first, holds most of ajv's files under the consumer's
      // options. ajv's code generator (all of whose files the consumer's program holds) is asked
      // before the rest of ajv, whose first files (2019.ts, 2020.ts) the consumer does not import.
      for (const folder of ["packages/consumer", "packages/ajv/lib/compile/codegen", "packages/ajv", "packages/plain"]) {
        const items = await allFindings(bridge, { path: folder });
        for (const path of SOURCES.filter((file) => file.startsWith(`${folder}/`))) {
          expect(
            items.filter((item) => item.path === path),
            path,
          ).toEqual(whole.get(path));
        }
      }
    } finally {
      await bridge.close();
    }
  }, 600_000);
});
