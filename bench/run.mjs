// `npm run bench`: every benchmark in turn, each printing its figures as ratios against a baseline
// measured in the same run. Pass a name (floor, startup, bridge, supervision, maude, typescript, plain-client, monorepo, check, since, changes, shared, detect, big-file, gopls) to run only that one.
// `--save FILE` also writes the run to FILE: a `# ` header (when, Node, cores, load), then each
// bench's output under its `### NAME` line; `npm run bench:doc FILE` makes docs/performance.md's
// tables from it (bench/results/latest.txt is the page's).
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
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
const args = process.argv.slice(2);
const save = args.includes("--save") ? args[args.indexOf("--save") + 1] : undefined;
if (args.includes("--save") && save === undefined) throw new Error("--save needs a file");
const chosen = args.filter((name) => all.includes(name));
const write = (text) => {
  process.stdout.write(text);
  if (save !== undefined) appendFileSync(save, text);
};
if (save !== undefined)
  writeFileSync(
    save,
    `# ${new Date().toISOString().slice(0, 10)}\n# Node ${process.versions.node}\n# ${availableParallelism()} cores, load ${loadavg()[0].toFixed(1)} at the start\n`,
  );
let failed = 0;
for (const name of chosen.length > 0 ? chosen : all) {
  const script = `${here}${name}.mjs`;
  if (!existsSync(script)) continue;
  write(`\n### ${name}\n`);
  const child = spawn(process.execPath, [script], { stdio: ["inherit", "pipe", "inherit"] });
  child.stdout.on("data", (chunk) => write(chunk));
  const status = await new Promise((resolve) => child.on("close", resolve));
  if (status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
