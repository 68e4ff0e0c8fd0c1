#!/usr/bin/env node
// "What would this edit break?" (issue 40): `diagnostics` with `changes` on a generated git
// repository of 2,000 TypeScript files, against one cold `tsc --noEmit -p` on the same tree,
// measured in the same run (run after `npm run build`). The bridge is warm (one plain call of the
// whole folder first); the preview is of an everyday edit, one module's body whose importers need
// no re-check (target <= 0.3x one cold tsc 7.0.2), and, for comparison, of an exported
// signature that every fifth file calls. Each preview is checked to have left the disk untouched.
// Usage: node bench/changes.mjs [--files 2000]
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
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

const { root, config, git } = scaleRepository(FILES, "changes");
const tsc = tscCold(root, join(REPO, "node_modules/typescript-7/bin/tsc"));
const transport = lspmcpTransport(["serve", "--standalone", "--config", config], { logLevel: "error" });
const client = new Client({ name: "bench", version: "0" });
await client.connect(transport);
const call = async (extra) => {
  const start = process.hrtime.bigint();
  const result = await client.callTool({ name: "diagnostics", arguments: { path: ".", min_severity: "error", limit: 1, ...extra } }, undefined, {
    timeout: 900_000,
  });
  if (result.isError) throw new Error(result.content[0].text);
  if (git("status", "--porcelain") !== "") throw new Error("a preview changed the work tree");
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, ...result.structuredContent };
};
const warm = await call({});
const everyday = { changes: [{ path: "src/f3.ts", text: "export function f3(a: number): number { return a * 33; }\n" }] };
const firstEveryday = await call(everyday);
const everydayAgain = await call(everyday);
const signature = await call({ changes: [{ path: "src/f0.ts", text: "export function scale(a: string): number { return a.length * 2; }\n" }] });
const after = await call({});
await client.close();
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
console.log(
  `${FILES} TypeScript files in git: cold tsc --noEmit 7.0.2 ${tsc.ms.toFixed(0)} ms (${tsc.errors} errors); a first plain call ${warm.ms.toFixed(0)} ms`,
);
console.log(
  `  preview of an everyday edit (one body), warm: ${firstEveryday.ms.toFixed(0)} ms, again ${everydayAgain.ms.toFixed(0)} ms (${everydayAgain.introduced} introduced, ${everydayAgain.unchanged} unchanged) = ${ratio(everydayAgain.ms, tsc.ms)} tsc 7 (target <= 0.3x)`,
);
console.log(
  `  preview of an exported signature every fifth file calls: ${signature.ms.toFixed(0)} ms (${signature.introduced} introduced) = ${ratio(signature.ms, tsc.ms)} tsc 7`,
);
console.log(`  a plain call after the previews: ${after.ms.toFixed(0)} ms, ${after.total} errors (as before: ${warm.total})`);
rmSync(root, { recursive: true, force: true });
rmSync(config, { force: true });
