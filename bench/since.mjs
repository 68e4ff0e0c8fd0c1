#!/usr/bin/env node
// "What did my change break?" (issue 25): `diagnostics` with `since: "HEAD"` on a generated git
// repository of 2,000 TypeScript files, against one cold `tsc --noEmit -p` on the same tree,
// measured in the same run (run after `npm run build`):
//  1. the first `since` call of a fresh bridge: both trees checked (the working tree and a snapshot
//     of HEAD, each by its own TypeScript 7 server), snapshot made (target <= 2x one cold tsc 7.0.2);
//  2. the same call after one more file changed: the snapshot's answers are cached, so only the
//     working tree is checked again (target <= 0.3x).
// Each figure is printed against tsc 7.0.2 (the compiler that answers) and tsc 5.9.3.
// Usage: node bench/since.mjs [--files 2000]
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { lspmcpTransport } from "./lspmcp-process.mjs";
import { scaleRepository } from "./bench-projects.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const FILES = Number(args.includes("--files") ? args[args.indexOf("--files") + 1] : "2000");

function tscCold(root, tsc) {
  const start = process.hrtime.bigint();
  const run = spawnSync(tsc, ["--noEmit", "-p", "tsconfig.json"], { cwd: root, encoding: "utf8", maxBuffer: 256 << 20 });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, errors: (run.stdout.match(/error TS/g) ?? []).length };
}

const { root, config } = scaleRepository(FILES, "since");
// The agent's edit: `scale` now takes a string, so every caller breaks.
writeFileSync(join(root, "src", "f0.ts"), "export function scale(a: string): number { return a.length * 2; }\n");
const tsc = tscCold(root, join(REPO, "node_modules/typescript-7/bin/tsc"));
const tsc5 = tscCold(root, join(REPO, "node_modules/typescript/bin/tsc"));
const transport = lspmcpTransport(["serve", "--standalone", "--config", config], { logLevel: "error" });
const client = new Client({ name: "bench", version: "0" });
await client.connect(transport);
const call = async (since) => {
  const start = process.hrtime.bigint();
  const result = await client.callTool(
    { name: "diagnostics", arguments: { path: ".", ...(since ? { since } : {}), min_severity: "error", limit: 1 } },
    undefined,
    { timeout: 900_000 },
  );
  if (result.isError) throw new Error(result.content[0].text);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, ...result.structuredContent };
};
const first = await call("HEAD");
writeFileSync(join(root, "src", "f3.ts"), "export function f3(a: number): number { return a * 33; }\n");
const again = await call("HEAD");
writeFileSync(join(root, "src", "f4.ts"), "export function f4(a: number): number { return a * 44; }\n");
const plain = await call(null);
await client.close();
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const both = (run) => `${ratio(run.ms, tsc.ms)} tsc 7, ${ratio(run.ms, tsc5.ms)} tsc 5.9`;
console.log(`${FILES} TypeScript files in git: cold tsc --noEmit 7.0.2 ${tsc.ms.toFixed(0)} ms (${tsc.errors} errors), 5.9.3 ${tsc5.ms.toFixed(0)} ms`);
console.log(
  `  first since call: ${first.ms.toFixed(0)} ms (${first.introduced} introduced, ${first.unchanged} unchanged, ${first.resolved} resolved) = ${both(first)} (target <= 2x tsc 7)`,
);
console.log(`  after one more edit: ${again.ms.toFixed(0)} ms (${again.introduced} introduced) = ${both(again)} (target <= 0.3x tsc 7)`);
console.log(`  for comparison, the same call without since after one more edit (a warm folder call): ${plain.ms.toFixed(0)} ms = ${both(plain)}`);
rmSync(root, { recursive: true, force: true });
rmSync(config, { force: true });
