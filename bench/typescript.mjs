#!/usr/bin/env node
// TypeScript's whole-project diagnostics (issues 24 and 35), every figure a ratio against
// baselines measured in the same run on the same tree (run after `npm run build`): `tsc --noEmit`
// of TypeScript 7.0.2 (the pinned compiler, which answers here: no compiler in the workspace) and
// of 5.9.3, and the floor: a plain LSP client of the same native server pulling the same files.
//  - cold `lspmcp check` (target <= 1.15x the floor; <= 1.2x tsc 7 at 500 files, <= 1.5x at 2,000);
//  - cold `diagnostics "."` from the bridge's spawn (<= 1.6x tsc 7 at 2,000);
//  - `"."` again with nothing changed (<= 0.1x a cold tsc 7), also right after a fresh clone;
//  - `"."` after an edit of a module nothing imports, and after an edit that keeps a module's
//    exports (<= 0.2x), and after one that every file reaches (<= 0.7x);
//  - ajv (vendored real code) the same way.
// Usage: node bench/typescript.mjs [--sizes 500,2000,10000] [--no-real]
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { config, timed, tsModule, tsWorkspace } from "./bench-projects.mjs";
import { pullEvery, startDirectClient } from "./direct-lsp.mjs";
import { lspmcpTransport, MAIN } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const SIZES = (args.includes("--sizes") ? args[args.indexOf("--sizes") + 1] : "500,2000,10000").split(",").map(Number);
const REAL = !args.includes("--no-real");
const TSC7 = join(REPO, "node_modules/typescript-7/bin/tsc");
const TSC5 = join(REPO, "node_modules/typescript/bin/tsc");
// The native server the profile runs: the platform binary the package's bin/tsc launches.
const NATIVE = join(REPO, `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);
const IN_FLIGHT = 32;

const x = (a, b) => `${(a / b).toFixed(2)}x`;
const ms = (run) => `${run.ms.toFixed(0)} ms`;

/** Every `.ts` file under `folder` of `root`, absolute. */
function sourceFiles(root, folder) {
  return readdirSync(join(root, folder), { recursive: true })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(root, folder, name));
}

/** The floor: a plain LSP client of the native server, from its spawn to the last of its pulls of every file. */
async function floor(root, files) {
  const start = process.hrtime.bigint();
  const { connection, stop } = await startDirectClient({
    command: NATIVE,
    args: ["--lsp", "--stdio"],
    root,
    name: "bench",
    capabilities: { textDocument: { diagnostic: {} }, workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
  const errors = await pullEvery(connection, files, IN_FLIGHT);
  const run = { ms: Number(process.hrtime.bigint() - start) / 1e6, errors };
  await stop();
  return run;
}

/** One standalone bridge; `call()` is one `diagnostics "."`, timed from `from` (default: now). */
async function bridge(root) {
  const spawned = process.hrtime.bigint();
  const transport = lspmcpTransport(["serve", "--standalone", "--config", join(root, "bridge.toml")], { logLevel: "error" });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  const call = async (from = process.hrtime.bigint()) => {
    const result = await client.callTool({ name: "diagnostics", arguments: { path: ".", limit: 1, min_severity: "error" } }, undefined, { timeout: 900_000 });
    if (result.isError) throw new Error(result.content[0].text);
    return { ms: Number(process.hrtime.bigint() - from) / 1e6, files: result.structuredContent.files, errors: result.structuredContent.total };
  };
  return { call, spawned, close: () => client.close() };
}

async function compilers(root) {
  const tsc7 = await timed(TSC7, ["--noEmit", "-p", "tsconfig.json"], root);
  const tsc5 = await timed(TSC5, ["--noEmit", "-p", "tsconfig.json"], root);
  const count = (run) => (run.stdout.match(/error TS/g) ?? []).length;
  console.log(`  tsc 7.0.2 ${ms(tsc7)} (${count(tsc7)} errors), tsc 5.9.3 ${ms(tsc5)} (${count(tsc5)} errors)`);
  return { tsc7, tsc5 };
}

/** A figure against both compilers (and the floor, when given), with its target against tsc 7. */
function print(label, run, { tsc7, tsc5 }, target, base = null) {
  const vsFloor = base ? `, ${x(run.ms, base.ms)} the floor` : "";
  console.log(`  ${label}: ${ms(run)} = ${x(run.ms, tsc7.ms)} tsc 7, ${x(run.ms, tsc5.ms)} tsc 5.9${vsFloor} (target ${target})`);
}

async function project(label, root, files, edits) {
  console.log(`${label}`);
  const baseline = await compilers(root);
  const base = await floor(root, files);
  console.log(`  floor (plain LSP client of the native server, ${files.length} pulls): ${ms(base)}, ${base.errors} errors`);
  const check = await timed(MAIN, ["check", "--config", "bridge.toml", "--quiet", "--format", "json"], root);
  print("cold check", check, baseline, "<= 1.15x the floor", base);
  const { call, spawned, close } = await bridge(root);
  try {
    print('cold "." from bridge spawn', await call(spawned), baseline, "<= 1.5x / 1.6x at 2,000", base);
    print('"." again, nothing changed', await call(), baseline, "<= 0.1x");
    for (const [what, edit, target] of edits) {
      edit();
      print(`"." after ${what}`, await call(), baseline, target);
    }
    print('"." again, nothing changed, after those edits', await call(), baseline, "<= 0.1x");
  } finally {
    await close();
  }
  return baseline;
}

for (const size of SIZES) {
  const root = tsWorkspace(size);
  const file = (i) => join(root, "src", `f${i}.ts`);
  const middle = Math.floor(size / 2) + 1;
  // f{size-1} is imported by no module; f0 reaches every module through the chain of imports.
  await project(`${size} generated TypeScript files (no compiler in the workspace: 7.0.2 answers)`, root, sourceFiles(root, "src"), [
    ["an export appended to a module nothing imports", () => appendFileSync(file(size - 1), "export const extra = 1;\n"), "<= 0.2x"],
    ["an edit that keeps a module's exports (a body in the middle)", () => writeFileSync(file(middle), tsModule(middle, 1)), "<= 0.2x"],
    ["an unexported constant appended to a module in the middle", () => appendFileSync(file(middle), "const helperOfEdit = 2;\n"), "<= 0.2x"],
    ["an export added to the module every file reaches", () => appendFileSync(file(0), "export const everywhere = 0;\n"), "<= 0.7x"],
  ]);
  rmSync(root, { recursive: true, force: true });
}

// A fresh clone: every file written a moment before the first call. The second call must not
// take them all for changed.
{
  const root = tsWorkspace(2000);
  const { tsc7 } = await compilers(root);
  const fresh = tsWorkspace(2000);
  const { call, spawned, close } = await bridge(fresh);
  const cold = await call(spawned);
  const again = await call();
  await close();
  console.log(`2,000 files right after a fresh clone: cold "." ${ms(cold)}, again ${ms(again)} = ${x(again.ms, tsc7.ms)} tsc 7 (target <= 0.1x)`);
  rmSync(root, { recursive: true, force: true });
  rmSync(fresh, { recursive: true, force: true });
}

if (REAL) {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-ajv-"));
  cpSync(join(REPO, "tests/fixtures/differential/typescript-ajv"), root, { recursive: true });
  writeFileSync(join(root, "bridge.toml"), config("typescript"));
  const files = sourceFiles(root, "lib");
  await project(`ajv 8.20.0 (${files.length} TypeScript files, vendored)`, root, files, []);
  rmSync(root, { recursive: true, force: true });
}
