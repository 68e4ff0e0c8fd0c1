#!/usr/bin/env node
// `lspmcp check` against the pyright CLI on a generated Python folder, measured in the same run
// (run after `npm run build`; target <= 1.3x). TypeScript's figures are bench/typescript.mjs's.
// Wall time and CPU time (user+sys of the command's reaped process tree, from /proc) are both
// printed: on a shared machine the CPU ratio is the steadier one.
// Usage: node bench/check.mjs [--python 200]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { config, timed } from "./bench-projects.mjs";
import { MAIN } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const PYTHON_FILES = Number(option("--python", "200"));
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const line = (label, run) => `${label} ${run.ms.toFixed(0)} ms wall, ${run.cpuMs} ms cpu`;

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
