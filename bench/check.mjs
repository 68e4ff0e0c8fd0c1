#!/usr/bin/env node
// Whole-project diagnostics at the compiler's cost (issue 24), each figure against a baseline
// measured in the same run on the same workspace (run after `npm run build`):
//  1. `lspmcp check` (cold: server start included) vs `tsc --noEmit -p` on generated TypeScript
//     projects with cross-file imports (500, 2,000 and 10,000 files; target <= 1.3x, and the
//     2,000-file ratio at most 1.15x the 500-file one) and on the vendored real project (ajv);
//  2. a cold `diagnostics "."` (bridge spawn to answer) vs `tsc` (target <= 1.5x);
//  3. the same bridge's `diagnostics "."` after a one-file change vs a cold `tsc` (target <= 0.3x
//     at 2,000 files), and the bridge's peak RSS;
//  4. `lspmcp check` vs the pyright CLI on a Python folder (target <= 1.3x).
// Wall time and CPU time (user+sys of the command's reaped process tree, from /proc) are both
// printed: on a shared machine the CPU ratio is the steadier one.
// Usage: node bench/check.mjs [--sizes 500,2000,10000] [--python 200] [--real] [--no-real]
import { execFileSync, spawn } from "node:child_process";
import { closeSync, cpSync, mkdirSync, openSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { lspmcpTransport, MAIN } from "./lspmcp-process.mjs";
import { treeWhere } from "./proc.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SIZES = option("--sizes", "500,2000,10000").split(",").map(Number);
const REAL = !args.includes("--no-real");
const PYTHON_FILES = Number(option("--python", "200"));

/**
 * Runs a command and measures it: wall time, and CPU (user+sys) of its whole process tree,
 * sampled from /proc every 50 ms (each process's highest figure): a reaped child's CPU is not
 * enough, since lspmcp's servers run under a supervisor that the command does not wait for.
 * stdout goes to a file: the figure is the command's, not a pipe reader's.
 */
async function timed(command, argv, cwd) {
  const out = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-out-")), "stdout");
  const fd = openSync(out, "w");
  const start = process.hrtime.bigint();
  const child = spawn(command, argv, { cwd, stdio: ["ignore", fd, "ignore"] });
  const cpu = new Map();
  const sample = () => {
    for (const p of treeWhere((pid) => pid === child.pid)) cpu.set(`${p.pid}:${p.start}`, Math.max(cpu.get(`${p.pid}:${p.start}`) ?? 0, p.cpuMs));
  };
  const timer = setInterval(sample, 50);
  const status = await new Promise((done) => child.once("exit", (code) => done(code)));
  clearInterval(timer);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  closeSync(fd);
  const stdout = readFileSync(out, "utf8");
  rmSync(dirname(out), { recursive: true, force: true });
  return { ms, cpuMs: [...cpu.values()].reduce((a, b) => a + b, 0), status, stdout };
}

/**
 * A TypeScript project of `files` modules with imports as real code has them: each module
 * imports two or three earlier ones (its neighbour, a "parent" and a shared hub) and uses what it
 * imports; every tenth module has a type error.
 */
function tsWorkspace(files) {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-check-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  for (let i = 0; i < files; i++) writeFileSync(join(root, "src", `f${i}.ts`), tsModule(i, 0));
  writeFileSync(join(root, "bridge.toml"), config("typescript"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

function tsModule(i, edit) {
  const imports = [...new Set([i - 1, Math.floor(i / 2), Math.floor(i / 50) * 50].filter((j) => j >= 0 && j < i))];
  const lines = imports.map((j) => `import { f${j}, type T${j} } from "./f${j}";`);
  const uses = imports.map((j) => `f${j}(a).value`).join(" + ") || "a";
  lines.push(`export interface T${i} { readonly value: number; readonly label: string }`);
  lines.push(`export function f${i}(a: number): T${i} { return { value: ${uses} * ${i + edit}, label: "f${i}" }; }`);
  if (imports.length > 0) lines.push(`export const use${i}: T${imports[0]} = f${imports[0]}(${i});`);
  if (i % 10 === 0) lines.push(`export const wrong${i}: number = "x";`);
  return lines.join("\n") + "\n";
}

function config(profile) {
  return `[bridge]\nrequest_timeout_ms = 300000\nmax_result_bytes = 16000000\n\n[[server]]\nname = "${profile}"\nprofile = "${profile}"\n\n[[workspace]]\nname = "bench"\nroot = "."\nservers = ["${profile}"]\n`;
}

const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const line = (label, run) => `${label} ${run.ms.toFixed(0)} ms wall, ${run.cpuMs} ms cpu`;

/** Peak resident memory (VmHWM) of a process, in MiB, or null once it is gone. */
function peakRssMib(pid) {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib ? Number(kib) / 1024 : null;
  } catch {
    return null;
  }
}

/** A bridge's first `diagnostics "."` (from its spawn) and the same call after one file changed. */
async function folderCalls(root, files, changed) {
  const start = process.hrtime.bigint();
  const transport = lspmcpTransport(["serve", "--standalone", "--config", join(root, "bridge.toml")], { logLevel: "error" });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  const call = async (from) => {
    const result = await client.callTool({ name: "diagnostics", arguments: { path: ".", limit: 1 } }, undefined, { timeout: 900_000 });
    if (result.isError) throw new Error(result.content[0].text);
    return { ms: Number(process.hrtime.bigint() - from) / 1e6, files: result.structuredContent?.files, total: result.structuredContent?.total };
  };
  const cold = await call(start);
  const before = cold.total;
  changed();
  const warmStart = process.hrtime.bigint();
  const warm = await call(warmStart);
  const rss = peakRssMib(transport.pid);
  await client.close();
  if (files !== null && warm.files !== files) throw new Error(`warm call checked ${warm.files} files, not ${files}`);
  return { cold, warm, before, rss };
}

const results = [];
const report = async (label, root) => {
  const tsc = await timed(join(REPO, "node_modules/.bin/tsc"), ["--noEmit", "-p", "tsconfig.json"], root);
  const check = await timed(process.execPath, [MAIN, "check", "--config", "bridge.toml", "--quiet", "--format", "json"], root);
  const findings = check.status === 1 ? JSON.parse(check.stdout).summary.errors : `exit ${check.status}`;
  const tscErrors = (tsc.stdout.match(/error TS/g) ?? []).length;
  console.log(`${label}: ${line("tsc --noEmit", tsc)} (${tscErrors} errors); ${line("lspmcp check", check)} (${findings} errors)`);
  console.log(`  check / tsc: wall ${ratio(check.ms, tsc.ms)}, cpu ${ratio(check.cpuMs, tsc.cpuMs)} (target <= 1.3x)`);
  return { tsc, check };
};
for (const files of SIZES) {
  const root = tsWorkspace(files);
  const { tsc, check } = await report(`${files} TypeScript files`, root);
  // The change: one module in the middle gets another body (same exports), as an edit usually does.
  const edited = Math.floor(files / 2) + 1;
  const { cold, warm, rss } = await folderCalls(root, files, () => writeFileSync(join(root, "src", `f${edited}.ts`), tsModule(edited, 1)));
  console.log(
    `  diagnostics "." from bridge spawn ${cold.ms.toFixed(0)} ms; after one file changed ${warm.ms.toFixed(0)} ms; bridge peak RSS ${rss?.toFixed(1)} MiB`,
  );
  console.log(`  cold "." / tsc: wall ${ratio(cold.ms, tsc.ms)} (target <= 1.5x)`);
  console.log(`  warm "." after one change / cold tsc: wall ${ratio(warm.ms, tsc.ms)} (target <= 0.3x at 2,000 files)`);
  results.push({ files, wall: check.ms / tsc.ms, cpu: check.cpuMs / tsc.cpuMs });
  rmSync(root, { recursive: true, force: true });
}
if (results.length > 1) {
  const [a, b] = [results[0], results[1]];
  console.log(
    `check / tsc from ${a.files} to ${b.files} files: wall ${a.wall.toFixed(2)}x -> ${b.wall.toFixed(2)}x (${(b.wall / a.wall).toFixed(2)}x, target <= 1.15x), cpu ${a.cpu.toFixed(2)}x -> ${b.cpu.toFixed(2)}x`,
  );
}
if (REAL) {
  // The vendored real project: ajv's sources under its own strict tsconfig (tests/fixtures/differential).
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-ajv-"));
  cpSync(join(REPO, "tests/fixtures/differential/typescript-ajv"), root, { recursive: true });
  writeFileSync(join(root, "bridge.toml"), config("typescript"));
  const files = Number(execFileSync("sh", ["-c", "find lib -name '*.ts' | wc -l"], { cwd: root, encoding: "utf8" }).trim());
  const { tsc } = await report(`ajv 8.20.0 (${files} TypeScript files, vendored)`, root);
  const { cold } = await folderCalls(root, null, () => {});
  console.log(`  cold "." / tsc: wall ${ratio(cold.ms, tsc.ms)} (target <= 1.5x)`);
  rmSync(root, { recursive: true, force: true });
}

// Python: pyright's own CLI against check with the pyright profile, on the same folder.
if (PYTHON_FILES > 0) {
  const py = mkdtempSync(join(tmpdir(), "lspmcp-bench-py-"));
  mkdirSync(join(py, "pkg"));
  writeFileSync(join(py, "pkg", "__init__.py"), "");
  for (let i = 0; i < PYTHON_FILES; i++) {
    const body = i % 10 === 0 ? `VALUE_${i}: int = "x"\n` : `def f${i}(a: int) -> int:\n    return a * ${i}\n`;
    writeFileSync(join(py, "pkg", `m${i}.py`), body);
  }
  writeFileSync(join(py, "bridge.toml"), config("pyright"));
  const pyright = await timed(join(REPO, "node_modules/.bin/pyright"), ["pkg"], py);
  const pyCheck = await timed(process.execPath, [MAIN, "check", "--config", "bridge.toml", "--quiet", "--format", "json"], py);
  const pyErrors = /(\d+) errors?/.exec(pyright.stdout)?.[1];
  const pyFindings = pyCheck.status === 1 || pyCheck.status === 0 ? JSON.parse(pyCheck.stdout).summary.errors : `exit ${pyCheck.status}`;
  console.log(
    `${PYTHON_FILES + 1} Python files: ${line("pyright CLI", pyright)} (${pyErrors} errors); ${line("lspmcp check", pyCheck)} (${pyFindings} errors)`,
  );
  console.log(`  check / pyright: wall ${ratio(pyCheck.ms, pyright.ms)}, cpu ${ratio(pyCheck.cpuMs, pyright.cpuMs)} (target <= 1.3x)`);
  rmSync(py, { recursive: true, force: true });
}
