// `npm run bench`: every benchmark in turn, each printing its figures as ratios against a baseline
// measured in the same run. Pass a name (floor, startup, bridge, supervision, maude, typescript, plain-client, monorepo, check, since, changes, shared, detect, big-file, gopls) to run only that one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const all = [
  "floor",
  "startup",
  "bridge",
  "supervision",
  "maude",
  "typescript",
  "plain-client",
  "monorepo",
  "check",
  "since",
  "changes",
  "shared",
  "detect",
  "big-file",
  "gopls",
];
const chosen = process.argv.slice(2).filter((name) => all.includes(name));
let failed = 0;
for (const name of chosen.length > 0 ? chosen : all) {
  const script = `${here}${name}.mjs`;
  if (!existsSync(script)) continue;
  console.log(`\n### ${name}`);
  const result = spawnSync(process.execPath, [script], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
