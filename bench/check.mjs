#!/usr/bin/env node
// `lspmcp check` against the pyright CLI on a generated Python folder, measured in the same run
// (run after `npm run build`; target <= 1.3x). TypeScript's figures are bench/typescript.mjs's.
// Wall time and CPU time (user+sys of the command's reaped process tree, from /proc) are both
// printed: on a shared machine the CPU ratio is the steadier one.
// Flask's src (vendored, tests/fixtures/differential/python-flask) with ty, pyrefly and pyright:
// `check` / each one's CLI (target <= 1.3x) and a cold bridge's `diagnostics` on "." / the CLI
// (target <= 1.5x), with each server's findings counted beside its CLI's.
// Usage: node bench/check.mjs [--python 200] [--flask 1|0]
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { config, timed } from "./bench-projects.mjs";
import { lspmcpTransport, MAIN } from "./lspmcp-process.mjs";
import { toolCacheDir } from "../dist/src/config/tool-cache.js";

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
  const pyCheck = await timed(MAIN, ["check", "--config", "bridge.toml", "--quiet", "--format", "json"], py);
  const pyErrors = /(\d+) errors?/.exec(pyright.stdout)?.[1];
  const pyFindings = pyCheck.status === 1 || pyCheck.status === 0 ? JSON.parse(pyCheck.stdout).summary.errors : `exit ${pyCheck.status}`;
  console.log(
    `${PYTHON_FILES + 1} Python files: ${line("pyright CLI", pyright)} (${pyErrors} errors); ${line("lspmcp check", pyCheck)} (${pyFindings} errors)`,
  );
  console.log(`  check / pyright: wall ${ratio(pyCheck.ms, pyright.ms)}, cpu ${ratio(pyCheck.cpuMs, pyright.cpuMs)} (target <= 1.3x)`);
  rmSync(py, { recursive: true, force: true });
}

// Flask: each type checker's CLI against check and a cold "." with its profile, in one run.
if (option("--flask", "1") !== "0") {
  const flask = mkdtempSync(join(tmpdir(), "lspmcp-bench-flask-"));
  cpSync(join(REPO, "tests/fixtures/differential/python-flask"), flask, { recursive: true });
  const cache = toolCacheDir();
  const checkers = [
    { profile: "ty", cli: [join(cache, "ty/bin/ty"), ["check", "--no-progress", "--output-format", "concise", "."]] },
    { profile: "pyrefly", cli: [join(cache, "pyrefly/bin/pyrefly"), ["check", "--output-format", "min-text"]] },
    { profile: "pyright", cli: [join(REPO, "node_modules/.bin/pyright"), ["src"]] },
  ];
  console.log("Flask 3.1.3 src (23 files):");
  for (const { profile, cli } of checkers) {
    writeFileSync(join(flask, "bridge.toml"), config(profile));
    const own = await timed(cli[0], cli[1], flask);
    const check = await timed(MAIN, ["check", "--config", "bridge.toml", "--quiet", "--format", "json"], flask);
    const found = JSON.parse(check.stdout).summary;
    const start = process.hrtime.bigint();
    const client = new Client({ name: "bench", version: "0" });
    await client.connect(lspmcpTransport(["serve", "--standalone", "--config", join(flask, "bridge.toml")]));
    const dot = await client.callTool({ name: "diagnostics", arguments: { path: ".", limit: 1 } }, undefined, { timeout: 600_000 });
    const coldMs = Number(process.hrtime.bigint() - start) / 1e6;
    await client.close();
    console.log(
      `  ${profile}: ${line("CLI", own)}; ${line("check", check)} (${found.errors} errors, ${found.warnings} warnings); cold "." ${coldMs.toFixed(0)} ms wall (${dot.structuredContent?.total} findings)`,
    );
    console.log(
      `    check / CLI: wall ${ratio(check.ms, own.ms)}, cpu ${ratio(check.cpuMs, own.cpuMs)} (target <= 1.3x); cold "." / CLI: wall ${ratio(coldMs, own.ms)} (target <= 1.5x)`,
    );
  }
  rmSync(flask, { recursive: true, force: true });
}
