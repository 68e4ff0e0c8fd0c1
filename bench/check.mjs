#!/usr/bin/env node
// Diagnostics at compiler speed (issue 16), each figure against a baseline measured in the same run
// on the same generated workspace (run after `npm run build`):
//  1. `lspmcp check` (cold: server start included) vs `tsc --noEmit -p` on 500 and 2,000 TypeScript
//     files (target <= 1.3x), and how the ratio grows between the two;
//  2. a warm bridge's folder `diagnostics` call on "." after one file changed vs a cold `tsc`
//     (target <= 0.5x);
//  3. `lspmcp check` vs the pyright CLI on a Python folder (target <= 1.3x).
// Wall time and CPU time (user+sys of the command's reaped process tree, from /proc) are both
// printed: on a shared machine the CPU ratio is the steadier one.
// Usage: node bench/check.mjs [--sizes 500,2000] [--python 200]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { lspmcpTransport, MAIN } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SIZES = option("--sizes", "500,2000").split(",").map(Number);
const PYTHON_FILES = Number(option("--python", "200"));

/** CPU ms of this process's reaped children so far (cutime + cstime, USER_HZ 100). */
function childrenCpuMs() {
  const text = readFileSync("/proc/self/stat", "latin1");
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(f[13]) + Number(f[14])) * 10;
}

function timed(command, argv, cwd) {
  const cpu = childrenCpuMs();
  const start = process.hrtime.bigint();
  const run = spawnSync(command, argv, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: childrenCpuMs() - cpu, status: run.status, stdout: run.stdout };
}

function tsWorkspace(files) {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-check-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  for (let i = 0; i < files; i++) {
    const body = i % 10 === 0 ? `export const v${i}: number = "x";\n` : `export function f${i}(a: number): number { return a * ${i}; }\n`;
    writeFileSync(join(root, "src", `f${i}.ts`), body);
  }
  writeFileSync(join(root, "bridge.toml"), config("typescript"));
  return root;
}

function config(profile) {
  return `[bridge]\nrequest_timeout_ms = 300000\nmax_result_bytes = 16000000\n\n[[server]]\nname = "${profile}"\nprofile = "${profile}"\n\n[[workspace]]\nname = "bench"\nroot = "."\nservers = ["${profile}"]\n`;
}

const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const line = (label, run) => `${label} ${run.ms.toFixed(0)} ms wall, ${run.cpuMs} ms cpu`;

async function warmFolderCall(root, files) {
  const transport = lspmcpTransport(["serve", "--standalone", "--config", join(root, "bridge.toml")], { logLevel: "error" });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  const call = async () => {
    const start = process.hrtime.bigint();
    const result = await client.callTool({ name: "diagnostics", arguments: { path: ".", limit: 1 } }, undefined, { timeout: 600_000 });
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, files: result.structuredContent?.files, total: result.structuredContent?.total };
  };
  const cold = await call();
  writeFileSync(join(root, "src", "f1.ts"), `export function f1(a: number): number { return a * 11; }\n`);
  const warm = await call();
  await client.close();
  if (warm.files !== files) throw new Error(`warm call checked ${warm.files} files, not ${files}`);
  return { cold, warm };
}

const results = [];
for (const files of SIZES) {
  const root = tsWorkspace(files);
  const tsc = timed(join(REPO, "node_modules/.bin/tsc"), ["--noEmit", "-p", "tsconfig.json"], root);
  const check = timed(process.execPath, [MAIN, "check", "--config", "bridge.toml", "--quiet", "--format", "json"], root);
  const findings = check.status === 1 ? JSON.parse(check.stdout).summary.errors : `exit ${check.status}`;
  const tscErrors = (tsc.stdout.match(/error TS/g) ?? []).length;
  console.log(`${files} TypeScript files: ${line("tsc --noEmit", tsc)} (${tscErrors} errors); ${line("lspmcp check", check)} (${findings} errors)`);
  console.log(`  check / tsc: wall ${ratio(check.ms, tsc.ms)}, cpu ${ratio(check.cpuMs, tsc.cpuMs)} (target <= 1.3x)`);
  const { cold, warm } = await warmFolderCall(root, files);
  console.log(`  diagnostics "." in a bridge: first call ${cold.ms.toFixed(0)} ms, after one file changed ${warm.ms.toFixed(0)} ms (${warm.total} diagnostics)`);
  console.log(`  warm folder call / cold tsc: wall ${ratio(warm.ms, tsc.ms)} (target <= 0.5x)`);
  results.push({ files, wall: check.ms / tsc.ms, cpu: check.cpuMs / tsc.cpuMs });
  rmSync(root, { recursive: true, force: true });
}
if (results.length > 1) {
  const [a, b] = [results[0], results.at(-1)];
  console.log(`check / tsc from ${a.files} to ${b.files} files: wall ${a.wall.toFixed(2)}x -> ${b.wall.toFixed(2)}x, cpu ${a.cpu.toFixed(2)}x -> ${b.cpu.toFixed(2)}x`);
}

// Python: pyright's own CLI against check with the pyright profile, on the same folder.
const py = mkdtempSync(join(tmpdir(), "lspmcp-bench-py-"));
mkdirSync(join(py, "pkg"));
writeFileSync(join(py, "pkg", "__init__.py"), "");
for (let i = 0; i < PYTHON_FILES; i++) {
  const body = i % 10 === 0 ? `VALUE_${i}: int = "x"\n` : `def f${i}(a: int) -> int:\n    return a * ${i}\n`;
  writeFileSync(join(py, "pkg", `m${i}.py`), body);
}
writeFileSync(join(py, "bridge.toml"), config("pyright"));
const pyright = timed(join(REPO, "node_modules/.bin/pyright"), ["pkg"], py);
const pyCheck = timed(process.execPath, [MAIN, "check", "--config", "bridge.toml", "--quiet", "--format", "json"], py);
const pyErrors = /(\d+) errors?/.exec(pyright.stdout)?.[1];
const pyFindings = pyCheck.status === 1 || pyCheck.status === 0 ? JSON.parse(pyCheck.stdout).summary.errors : `exit ${pyCheck.status}`;
console.log(`${PYTHON_FILES + 1} Python files: ${line("pyright CLI", pyright)} (${pyErrors} errors); ${line("lspmcp check", pyCheck)} (${pyFindings} errors)`);
console.log(`  check / pyright: wall ${ratio(pyCheck.ms, pyright.ms)}, cpu ${ratio(pyCheck.cpuMs, pyright.cpuMs)} (target <= 1.3x)`);
rmSync(py, { recursive: true, force: true });
