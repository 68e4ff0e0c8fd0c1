#!/usr/bin/env node
// A generated project-references monorepo: `lspmcp check` and a cold bridge's `diagnostics` on "."
// (then "." again with nothing changed) against a cold `tsc -b` of TypeScript 7.0.2, measured in
// the same run (run after `npm run build`; targets: check <= 1.5x, "." again <= 0.1x). Each
// package has its own tsconfig (composite; every other one strict) and imports the previous
// package's entry module by its source, so each package's program holds a neighbour's file too:
// the bridge must answer every file from its own project. The config is the user's: one workspace, the typescript
// profile. With --typescript NODE_MODULES (a folder an npm install of a `typescript` package
// filled), the monorepo links that folder in as its own: that compiler answers, its `tsc -b` is
// the baseline, and each run's `check` is paired with one of the same files without it (the pinned
// compiler). Usage: node bench/monorepo.mjs [--shapes 8x60,40x50] [--runs 3] [--typescript DIR]
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { config, timed } from "./bench-projects.mjs";
import { lspmcpTransport, MAIN } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const OWN_TYPESCRIPT = option("--typescript", null) && resolve(option("--typescript", null));
const TSC = OWN_TYPESCRIPT ? join(OWN_TYPESCRIPT, "typescript/bin/tsc") : join(REPO, "node_modules/typescript-7/bin/tsc");
const SHAPES = option("--shapes", "8x60,40x50")
  .split(",")
  .map((shape) => shape.split("x").map(Number));
const RUNS = Number(option("--runs", "3"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

/** `packages` packages of `files` modules each; every tenth module has a type error. */
function monorepo(packages, files) {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-monorepo-"));
  const references = [];
  for (let p = 0; p < packages; p++) {
    const dir = join(root, "packages", `p${p}`);
    mkdirSync(join(dir, "src"), { recursive: true });
    const strict = p % 2 === 0;
    const options = `"strict": ${strict}, "composite": true, "rootDir": "src", "outDir": "dist", "lib": ["ES2022"], "types": [], "module": "nodenext", "target": "es2022"`;
    const refs = p > 0 ? `, "references": [{ "path": "../p${p - 1}" }]` : "";
    writeFileSync(join(dir, "tsconfig.json"), `{ "compilerOptions": { ${options} }, "include": ["src"]${refs} }\n`);
    references.push(`{ "path": "packages/p${p}" }`);
    for (let i = 0; i < files; i++) {
      const lines = [];
      if (i > 0) lines.push(`import { f${i - 1} } from "./f${i - 1}.js";`);
      // The previous package's entry module, which imports nothing: each program holds its own
      // package and one neighbour's file, as packages that use another's small public API do.
      if (p > 0 && i === 1) lines.push(`import { f0 as previous } from "../../p${p - 1}/src/f0.js";`);
      const uses = i > 0 ? `f${i - 1}(a)${p > 0 && i === 1 ? " + previous(a)" : ""}` : "a";
      lines.push(`export function f${i}(a: number): number { return ${uses} + ${i}; }`);
      // Strict-only in strict packages (an implicit any), an error everywhere else.
      if (i % 10 === 0) lines.push(strict ? `export function loose${i}(x) { return x; }` : `export const wrong${i}: number = "x";`);
      writeFileSync(join(dir, "src", `f${i}.ts`), `${lines.join("\n")}\n`);
    }
  }
  writeFileSync(join(root, "tsconfig.json"), `{ "files": [], "references": [${references.join(", ")}] }\n`);
  writeFileSync(join(root, "package.json"), '{ "name": "bench-monorepo", "private": true, "type": "module" }\n');
  execFileSync("git", ["init", "-q"], { cwd: root });
  writeFileSync(join(root, ".git", "info", "exclude"), "packages/*/dist/\n*.tsbuildinfo\nbridge.toml\n");
  writeFileSync(join(root, "bridge.toml"), config("typescript"));
  return root;
}

/** A cold `tsc -b`: a fresh copy each time, with no build info. */
async function coldBuild(root) {
  const copy = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-tscb-")), "repo");
  cpSync(root, copy, { recursive: true });
  const run = await timed(TSC, ["-b", "--pretty", "false"], copy);
  const errors = run.stdout.split("\n").filter((line) => / error TS\d+:/.test(line)).length;
  rmSync(join(copy, ".."), { recursive: true, force: true });
  return { ...run, errors };
}

/** A cold bridge's "." and "." again, each as the client sees it. */
async function dotTwice(root) {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(lspmcpTransport(["serve", "--standalone", "--config", join(root, "bridge.toml")]));
  const dot = async () => {
    const start = performance.now();
    const result = await client.callTool({ name: "diagnostics", arguments: { path: ".", limit: 1, min_severity: "error" } }, undefined, { timeout: 900_000 });
    if (result.isError) throw new Error(result.content[0].text);
    return { ms: performance.now() - start, total: result.structuredContent.total };
  };
  const cold = await dot();
  const again = await dot();
  await client.close();
  return { cold, again };
}

/** `root`'s twin without a compiler of its own, and `root` with the --typescript one linked in; null without the option. */
function linkOwnTypescript(root) {
  if (!OWN_TYPESCRIPT) return null;
  const twin = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-pinned-")), "repo");
  cpSync(root, twin, { recursive: true });
  symlinkSync(OWN_TYPESCRIPT, join(root, "node_modules"));
  appendFileSync(join(root, ".git", "info", "exclude"), "node_modules\n");
  return twin;
}

const checkIn = (root) => timed(MAIN, ["check", "--config", "bridge.toml", "--quiet", "--format", "json"], root);

for (const [packages, files] of SHAPES) {
  const root = monorepo(packages, files);
  const twin = linkOwnTypescript(root);
  const builds = [];
  const checks = [];
  const pinnedChecks = [];
  const dots = [];
  for (let run = 0; run < RUNS; run++) {
    builds.push(await coldBuild(root));
    checks.push(await checkIn(root));
    if (twin) pinnedChecks.push(await checkIn(twin));
    dots.push(await dotTwice(root));
  }
  const build = median(builds.map((run) => run.ms));
  const check = median(checks.map((run) => run.ms));
  // CPU of each command's whole process tree: steadier than wall time on a shared machine.
  const buildCpu = median(builds.map((run) => run.cpuMs));
  const checkCpu = median(checks.map((run) => run.cpuMs));
  const cold = median(dots.map((run) => run.cold.ms));
  const again = median(dots.map((run) => run.again.ms));
  const findings = JSON.parse(checks[0].stdout).summary.errors;
  console.log(`${packages} packages x ${files} files (${packages * files} files), medians of ${RUNS}:`);
  console.log(
    `  cold tsc -b ${build.toFixed(0)} ms (${builds[0].errors} errors); check ${check.toFixed(0)} ms (${findings} errors); "." cold ${cold.toFixed(0)} ms (${dots[0].cold.total} errors), again ${again.toFixed(0)} ms`,
  );
  console.log(
    `  check / tsc -b: ${ratio(check, build)} (target <= 1.5x); "." cold / tsc -b: ${ratio(cold, build)}; "." again / tsc -b: ${ratio(again, build)} (target <= 0.1x)`,
  );
  console.log(`  cpu: tsc -b ${buildCpu} ms, check ${checkCpu} ms: ${ratio(checkCpu, buildCpu)}`);
  if (twin) {
    const paired = (figure) => median(checks.map((run, at) => run[figure] / pinnedChecks[at][figure])).toFixed(2);
    const pinned = (figure) => median(pinnedChecks.map((run) => run[figure])).toFixed(0);
    const pinnedFindings = JSON.parse(pinnedChecks[0].stdout).summary.errors;
    console.log(
      `  check with ${OWN_TYPESCRIPT} / with the pinned compiler (${pinned("ms")} ms, ${pinned("cpuMs")} ms CPU, ${pinnedFindings} errors), paired: ${paired("ms")}x wall, ${paired("cpuMs")}x CPU`,
    );
    rmSync(join(twin, ".."), { recursive: true, force: true });
  }
  rmSync(root, { recursive: true, force: true });
}
