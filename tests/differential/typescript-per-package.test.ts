// CONTRACT §4.2 "with that project's own toolchain" and §1: each file is answered by the
// TypeScript its project runs (Node's `node_modules/typescript` from the project's folder up), not
// by the one at the workspace root; each toolchain is a session of its own, named in
// `session_status` and `check`'s report. The compilers are the real 5.9.3, 6.0.3 and 7.0.2 from
// the npm registry (lspmcp's dev dependencies), copied into the packages as an install puts them.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { diagnostics, startKeys, TSC, tscFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

/** An implicit `any` (TS7006 where `strict` is on: TypeScript 6 and 7 by default, not 5.9) and a plain type error. */
const SOURCES = {
  "src/implicit.ts": "export function double(a) {\n  return a * 2;\n}\n",
  "src/main.ts": 'import { double } from "./implicit.js";\n\nexport const total: number = "four";\nexport const twice = double(2);\n',
};
const TSCONFIG = '{ "compilerOptions": { "target": "es2022", "module": "nodenext", "noEmit": true }, "include": ["src"] }\n';

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A git checkout with `files`, `node_modules` ignored. */
function checkout(files: Record<string, string>): string {
  const root = realpathSync(tempDir("lspmcp-per-package-"));
  write(root, { ".gitignore": "node_modules\n", ...files });
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

/** lspmcp's dev dependency `alias` copied to `at`, as `npm install` writes a package; 7.x with its native compiler beside it. */
function install(alias: "typescript" | "typescript-6.0" | "typescript-7", at: string): void {
  cpSync(join(REPO, "node_modules", alias), at, { recursive: true, dereference: true });
  if (alias === "typescript-7") {
    const native = "@typescript/typescript-linux-x64";
    mkdirSync(join(at, "..", "@typescript"), { recursive: true });
    symlinkSync(realpathSync(join(REPO, "node_modules", native)), join(at, "..", native));
  }
}

interface Run {
  server: string;
  version: string;
  compiler: { version: string; source: string; path: string; folders: string[] } | null;
  files: number;
}

const errorsOnly = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity === "error");
const under = (folder: string, findings: readonly Finding[]) => findings.filter((finding) => finding.path.startsWith(`${folder}/`));
const prefixed = (folder: string, findings: readonly Finding[]) => findings.map((finding) => ({ ...finding, path: `${folder}/${finding.path}` }));

const bridges: Bridge[] = [];
afterAll(async () => {
  for (const bridge of bridges) await bridge.close();
});

describe("a polyglot repository: web/ installs TypeScript 5.9.3, tools/ has no compiler, no package.json at the top", () => {
  const root = checkout({
    "web/tsconfig.json": TSCONFIG,
    ...Object.fromEntries(Object.entries(SOURCES).map(([path, text]) => [`web/${path}`, text])),
    "web/package.json": '{ "name": "web", "private": true, "devDependencies": { "typescript": "5.9.3" } }\n',
    "tools/gen.ts": "export function half(n) {\n  return n / 2;\n}\n",
    "scripts/deploy.sh": "#!/bin/sh\necho deploy\n",
  });
  install("typescript", join(root, "web/node_modules/typescript"));

  test("zero-config check answers web/ with its own 5.9.3, equal to web's own tsc, and tools/ with the pinned 7.0.2; the report names both", async () => {
    const own = prefixed("web", await tscFindings(join(root, "web"), TSC["5.9.3"]));
    // web's own tsc accepts the implicit any (no strict in 5.9): only the type error.
    expect(own.map((finding) => finding.code)).toEqual(["2322"]);
    const run = await runCheckCli(["--format", "json"], { cwd: root });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /typescript answers for \. with TypeScript 7\.0\.2 \(pinned\); answers for web with TypeScript 5\.9\.3 \(its own: web\/node_modules\/typescript\)/,
    );
    const report = JSON.parse(run.stdout) as { items: Finding[]; summary: { runs: Run[] } };
    expect(startKeys(errorsOnly(under("web", report.items)))).toEqual(startKeys(own));
    expect(under("tools", report.items).map((finding) => finding.code)).toEqual(["7006"]);
    const typescriptRuns = report.summary.runs.filter((one) => one.server === "typescript");
    expect(typescriptRuns).toMatchObject([
      { version: "7.0.2", compiler: { version: "7.0.2", source: "pinned", path: "pinned", folders: [] }, files: 1 },
      { version: "5.9.3", compiler: { version: "5.9.3", source: "workspace", path: "web/node_modules/typescript", folders: ["web"] }, files: 2 },
    ]);
    const text = await runCheckCli(["--quiet"], { cwd: root });
    expect(text.stdout).toContain("typescript answered web with TypeScript 5.9.3 (web/node_modules/typescript)\n");
    expect(text.stdout).toContain("typescript answered . with TypeScript 7.0.2 (pinned)\n");
    const sarif = JSON.parse((await runCheckCli(["--quiet", "--format", "sarif"], { cwd: root })).stdout) as {
      runs: { tool: { driver: { name: string; fullName?: string } } }[];
    };
    expect(sarif.runs.filter((one) => one.tool.driver.name === "typescript").map((one) => one.tool.driver.fullName)).toEqual([
      "typescript (TypeScript 7.0.2, pinned: .)",
      "typescript (TypeScript 5.9.3, web/node_modules/typescript: web)",
    ]);
  }, 300_000);

  test.each([["folders first"], ["files first"]])(
    '"." and each file alone give web/ its own 5.9.3 answer, in either order (%s)',
    async (order) => {
      const own = startKeys(prefixed("web", await tscFindings(join(root, "web"), TSC["5.9.3"])));
      const bridge = await startBridge(null, {}, { cwd: root });
      bridges.push(bridge);
      const whole = async () => startKeys(errorsOnly(under("web", (await diagnostics(bridge, { path: "." })).items)));
      const alone = async () => {
        const found: Finding[] = [];
        for (const path of ["web/src/main.ts", "web/src/implicit.ts", "tools/gen.ts"]) found.push(...(await diagnostics(bridge, { path })).items);
        return found;
      };
      const [fromWhole, fromAlone] = order === "folders first" ? [await whole(), await alone()] : [null, await alone()];
      const wholeAfter = fromWhole ?? (await whole());
      expect(wholeAfter).toEqual(own);
      expect(startKeys(errorsOnly(under("web", fromAlone)))).toEqual(own);
      expect(under("tools", fromAlone).map((finding) => finding.code)).toEqual(["7006"]);
      const status = (await bridge.ok("session_status", {})) as { sessions: Record<string, unknown>[] };
      const sessions = status.sessions.filter((one) => one.server === "typescript");
      expect(sessions).toHaveLength(2);
      expect(sessions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ state: "ready", reported_version: "7.0.2", compiler_source: "pinned", compiler_path: "pinned", projects: [] }),
          expect.objectContaining({
            state: "ready",
            reported_version: "5.9.3",
            compiler_source: "workspace",
            compiler_path: "web/node_modules/typescript",
            projects: ["web"],
          }),
        ]),
      );
      // session_restart ends the server's other toolchains too; the next call on web starts its own again.
      await bridge.ok("session_restart", { server: "typescript" });
      const after = (await bridge.ok("session_status", {})) as { sessions: Record<string, unknown>[] };
      expect(after.sessions.filter((one) => one.server === "typescript").map((one) => one.compiler_path)).toEqual(["pinned"]);
      expect(startKeys(errorsOnly((await diagnostics(bridge, { path: "web/src/main.ts" })).items))).toEqual(
        own.filter((key) => key.startsWith("web/src/main.ts")),
      );
      await bridge.close();
    },
    300_000,
  );
});

describe("a pnpm workspace whose packages run TypeScript 6.0.3 and 7.0.2", () => {
  const root = checkout({
    "package.json": '{ "name": "mono", "private": true }\n',
    "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
    "packages/a/package.json": '{ "name": "a", "devDependencies": { "typescript": "6.0.3" } }\n',
    "packages/a/tsconfig.json": TSCONFIG.replace('"noEmit": true', '"noEmit": true, "strict": false'),
    "packages/b/package.json": '{ "name": "b", "devDependencies": { "typescript": "7.0.2" } }\n',
    "packages/b/tsconfig.json": TSCONFIG,
    ...Object.fromEntries(Object.entries(SOURCES).flatMap(([path, text]) => [`packages/a/${path}`, `packages/b/${path}`].map((at) => [at, text]))),
  });
  // pnpm's layout: each version once in the store, each package's node_modules a link into it.
  const store = join(root, "node_modules/.pnpm");
  install("typescript-6.0", join(store, "typescript@6.0.3/node_modules/typescript"));
  install("typescript-7", join(store, "typescript@7.0.2/node_modules/typescript"));
  for (const [pkg, version] of [
    ["a", "6.0.3"],
    ["b", "7.0.2"],
  ] as const) {
    mkdirSync(join(root, "packages", pkg, "node_modules"));
    symlinkSync(`../../../node_modules/.pnpm/typescript@${version}/node_modules/typescript`, join(root, "packages", pkg, "node_modules/typescript"));
  }

  test("check answers each package as its own tsc does, and names both compilers", async () => {
    const ownA = prefixed("packages/a", await tscFindings(join(root, "packages/a"), TSC["6.0.3"]));
    const ownB = prefixed("packages/b", await tscFindings(join(root, "packages/b"), TSC["7.0.2"]));
    // They disagree: a turns strict off, so only b reports the implicit any.
    expect(ownA.map((finding) => finding.code)).toEqual(["2322"]);
    expect(ownB.map((finding) => finding.code).sort()).toEqual(["2322", "7006"]);
    const run = await runCheckCli(["--format", "json", "--quiet"], { cwd: root });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { items: Finding[]; summary: { runs: Run[] } };
    expect(startKeys(errorsOnly(under("packages/a", report.items)))).toEqual(startKeys(ownA));
    expect(startKeys(errorsOnly(under("packages/b", report.items)))).toEqual(startKeys(ownB));
    const compilers = report.summary.runs.filter((one) => one.server === "typescript").map((one) => one.compiler);
    expect(compilers).toEqual(
      expect.arrayContaining([
        { version: "6.0.3", source: "workspace", path: "node_modules/.pnpm/typescript@6.0.3/node_modules/typescript", folders: ["packages/a"] },
        { version: "7.0.2", source: "workspace", path: "node_modules/.pnpm/typescript@7.0.2/node_modules/typescript", folders: ["packages/b"] },
      ]),
    );
  }, 300_000);

  test("each file alone, b's first, then the whole: the same answers", async () => {
    const bridge = await startBridge(null, {}, { cwd: root });
    bridges.push(bridge);
    const alone: Finding[] = [];
    for (const path of ["packages/b/src/main.ts", "packages/b/src/implicit.ts", "packages/a/src/implicit.ts", "packages/a/src/main.ts"]) {
      alone.push(...(await diagnostics(bridge, { path })).items);
    }
    const whole = (await diagnostics(bridge, { path: "." })).items;
    expect(startKeys(errorsOnly(whole))).toEqual(startKeys(errorsOnly(alone)));
    expect(under("packages/a", errorsOnly(whole)).map((finding) => finding.code)).toEqual(["2322"]);
    await bridge.close();
  }, 300_000);
});
