#!/usr/bin/env node
// `lspmcp check` on a generated 500-file TypeScript workspace vs `tsc --noEmit` on the same files,
// in the same run. Prints both wall times and the ratio (goal: check within 1.5x of tsc).
// Needs a build first: npx tsc -p tsconfig.json
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const files = Number(process.env.BENCH_FILES ?? 500);
const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-check-"));
mkdirSync(join(root, "src"));
writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
for (let i = 0; i < files; i++) {
  const body = i % 10 === 0 ? `export const v${i}: number = "x";\n` : `export function f${i}(a: number): number { return a * ${i}; }\n`;
  writeFileSync(join(root, "src", `f${i}.ts`), body);
}
writeFileSync(join(root, "bridge.toml"), `[bridge]\nrequest_timeout_ms = 300000\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "bench"\nroot = "."\nservers = ["typescript"]\n`);

function timed(command, args) {
  const start = process.hrtime.bigint();
  const run = spawnSync(command, args, { cwd: root, encoding: "utf8" });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, status: run.status };
}

const tsc = timed(join(repo, "node_modules/.bin/tsc"), ["--noEmit", "-p", "tsconfig.json"]);
const check = timed(process.execPath, [join(repo, "dist/src/cli/main.js"), "check", "--config", "bridge.toml", "--quiet"]);
rmSync(root, { recursive: true, force: true });
process.stdout.write(
  `${files} files: tsc --noEmit ${tsc.ms.toFixed(0)} ms (exit ${tsc.status}); lspmcp check ${check.ms.toFixed(0)} ms (exit ${check.status}); ratio ${(check.ms / tsc.ms).toFixed(2)}x (goal <= 1.5x)\n`,
);
