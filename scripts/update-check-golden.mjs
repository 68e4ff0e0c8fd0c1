#!/usr/bin/env node
// Regenerates the golden reports of `lspmcp check` (tests/fixtures/check/golden/) from the real
// binary. Tests never write goldens; run this on purpose, after `npx tsc -p tsconfig.json`, and
// review the diff: a changed golden is a changed report format.
//   node scripts/update-check-golden.mjs
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const fixtureRoot = join(repo, "tests/fixtures/check/workspace");
const goldenDir = join(repo, "tests/fixtures/check/golden");
// Must match ROOT_TOKEN in tests/check/helpers/golden.ts.
const rootToken = "{{FIXTURE_ROOT_URI}}";
const rootUri = `${pathToFileURL(fixtureRoot).href}/`;

const cases = JSON.parse(readFileSync(join(goldenDir, "cases.json"), "utf8"));
let failed = false;
for (const { golden, args, exit } of cases) {
  const run = spawnSync(process.execPath, [join(repo, "dist/lspmcp/main.js"), "check", ...args], {
    cwd: fixtureRoot,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root" },
  });
  if (run.status !== exit) {
    process.stderr.write(`${golden}: exit ${run.status}, expected ${exit}; not written\n${run.stderr}`);
    failed = true;
    continue;
  }
  writeFileSync(join(goldenDir, golden), run.stdout.replaceAll(rootUri, rootToken));
  process.stdout.write(`wrote ${golden}\n`);
}
process.exit(failed ? 1 : 0);
