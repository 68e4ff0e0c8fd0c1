#!/usr/bin/env node
// The cold gate's cases as a plain LSP client meets them: what no bridge of the per-file pull can
// go below. For each generated project size, in one run, medians of paired rounds:
//  - `tsc --noEmit -p` of TypeScript 7.0.2 (the pinned compiler, which answers these projects);
//  - `lspmcp check` (a fresh process, as a gate runs it);
//  - a plain client in a fresh process: Node, vscode-jsonrpc, the native server spawned and
//    initialized, every file pulled (32 in flight), shut down — the floor of `check`;
//  - after an export is added to the module every file reaches (f0.ts, told as a watched-file
//    change), every file pulled again by the same plain client: the floor of that edit's `"."`.
// Usage: node bench/plain-client.mjs [--sizes 500,2000,10000] [--rounds 5]
// (`node bench/plain-client.mjs --pull ROOT` is the fresh-process client the driver times.)
import { appendFileSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { timed, tsWorkspace } from "./bench-projects.mjs";
import { pullEvery, startDirectClient } from "./direct-lsp.mjs";
import { MAIN } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const NATIVE = join(REPO, `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);
const TSC7 = join(REPO, "node_modules/typescript-7/bin/tsc");
const SELF = fileURLToPath(import.meta.url);
const IN_FLIGHT = 32;
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);

const sourceFiles = (root) =>
  readdirSync(join(root, "src"))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(root, "src", name));

async function start(root) {
  return startDirectClient({
    command: NATIVE,
    args: ["--lsp", "--stdio"],
    root,
    name: "bench",
    capabilities: { textDocument: { diagnostic: {} }, workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const x = (a, b) => `${(a / b).toFixed(2)}x`;

/** The edit every file reaches, then every file pulled again: the time of the pulls after the change. */
async function editReachingAll(root, size) {
  const { connection, stop } = await start(root);
  const files = sourceFiles(root);
  await pullEvery(connection, files, IN_FLIGHT);
  const f0 = join(root, "src", "f0.ts");
  appendFileSync(f0, `export const added${size}: number = 1;\n`);
  const from = process.hrtime.bigint();
  await connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(f0).href, type: 2 }] });
  await pullEvery(connection, files, IN_FLIGHT);
  const ms = Number(process.hrtime.bigint() - from) / 1e6;
  await stop();
  return ms;
}

if (args[0] === "--pull") {
  const root = args[1];
  const { connection, stop } = await start(root);
  const errors = await pullEvery(connection, sourceFiles(root), IN_FLIGHT);
  await stop();
  console.log(`${errors} errors`);
} else {
  const sizes = option("--sizes", "500,2000,10000").split(",").map(Number);
  const rounds = Number(option("--rounds", "5"));
  for (const size of sizes) {
    const root = tsWorkspace(size);
    const runs = { tsc: [], check: [], plain: [], edit: [] };
    for (let round = 0; round < rounds; round++) {
      runs.tsc.push((await timed(TSC7, ["--noEmit", "-p", "tsconfig.json"], root)).ms);
      runs.check.push((await timed(MAIN, ["check", "--config", "bridge.toml", "--quiet", "--format", "json"], root)).ms);
      runs.plain.push((await timed(process.execPath, [SELF, "--pull", root], root)).ms);
    }
    const rootEdit = tsWorkspace(size);
    for (let round = 0; round < Math.min(rounds, 3); round++) runs.edit.push(await editReachingAll(rootEdit, round));
    const [tsc, check, plain, edit] = [runs.tsc, runs.check, runs.plain, runs.edit].map(median);
    console.log(`${size} files (medians of ${rounds} paired rounds)`);
    console.log(`  tsc 7.0.2 ${tsc.toFixed(0)} ms`);
    console.log(`  lspmcp check ${check.toFixed(0)} ms = ${x(check, tsc)} tsc`);
    console.log(`  plain client, fresh process, every file pulled ${plain.toFixed(0)} ms = ${x(plain, tsc)} tsc (check = ${x(check, plain)} it)`);
    console.log(`  plain client, every file pulled again after the edit every file reaches ${edit.toFixed(0)} ms = ${x(edit, tsc)} a cold tsc`);
    rmSync(root, { recursive: true, force: true });
    rmSync(rootEdit, { recursive: true, force: true });
  }
}
