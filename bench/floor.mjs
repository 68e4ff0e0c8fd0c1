// The default path against the physical floor (issue 18), every figure beside its target and its
// ratio to a baseline measured in the same run (run after `npm run build`):
//  - ready: spawn to `initialize` answered plus `tools/list`, standalone and default (attached,
//    shared server already running), against the 150 ms target; `tools/list` alone;
//  - first diagnostics from spawn, against a direct client's spawn-to-publish time;
//  - hover and document_symbols p50/p95 through lspmcp standalone and attached against a direct
//    vscode-jsonrpc client of the same typescript-language-server on the same file;
//  - bridge CPU per call (user+system from /proc over CPU_CALLS hovers, divided by the count) of
//    the standalone bridge, the forwarder and the shared server, each process alone;
//  - RSS of the standalone bridge, the shared server (four ready sessions each) and a forwarder.
// Wall-clock figures depend on the machine's load; CPU per call and counts much less.
// Usage: node bench/floor.mjs [--runs 300] [--cpu-calls 2000]
// With LSPMCP_BENCH_PROFILE=DIR every lspmcp process writes a V8 CPU profile into DIR
// (summarise with `node bench/profile-summary.mjs DIR/*.cpuprofile`).
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { positionOf, startDirectClient } from "./direct-lsp.mjs";
import { MAIN } from "./lspmcp-process.mjs";
import { alive, kib, procOf, stat } from "./proc.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const value = Number(argv[argv.indexOf(name) + 1]);
  return argv.includes(name) && Number.isInteger(value) && value > 0 ? value : fallback;
};
const RUNS = option("--runs", 300);
const CPU_CALLS = option("--cpu-calls", 2000);
const READY_RUNS = 5;
const PROFILE = process.env.LSPMCP_BENCH_PROFILE;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// A session's first call may wait for its language server to start, slowly on a loaded machine.
const LONG = { timeout: 600_000 };

const WORKSPACE = join(mkdtempSync(join(tmpdir(), "lspmcp-floor-ws-")), "poly");
cpSync(join(REPO, "tests/fixtures/workspaces/poly"), WORKSPACE, { recursive: true });
writeFileSync(join(WORKSPACE, "run.sh"), "#!/bin/sh\nmain() { echo hi; }\nmain\n");
const FILE = "src/shapes.ts";
const NEEDLE = "area();";
const TSLS = join(REPO, "node_modules/.bin/typescript-language-server");
const CONFIG_DIR = mkdtempSync(join(tmpdir(), "lspmcp-floor-"));
const CONFIG = join(CONFIG_DIR, "bridge.toml");
writeFileSync(
  CONFIG,
  `[bridge]\nmax_sessions = 4\nrequest_timeout_ms = 120000\n[shared]\nlease_dir = "leases"\nlinger_ms = 500\n` +
    ["typescript", "pyright", "clangd", "bash"].map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`).join("") +
    `[[workspace]]\nname = "poly"\nroot = ${JSON.stringify(WORKSPACE)}\nservers = ["typescript", "pyright", "clangd", "bash"]\n`,
);

const quantile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
};
const TEXT = readFileSync(join(WORKSPACE, FILE), "utf8");
const AT = positionOf(TEXT, NEEDLE);

async function samples(runs, fn) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return { p50: quantile(out, 0.5), p95: quantile(out, 0.95) };
}

// --- the floor: a direct vscode-jsonrpc client of the same server
async function direct() {
  const t0 = performance.now();
  const { connection, stop } = await startDirectClient({
    command: TSLS,
    args: ["--stdio"],
    root: WORKSPACE,
    name: "poly",
    capabilities: { textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true }, hover: { contentFormat: ["markdown"] } } },
  });
  const uri = pathToFileURL(join(WORKSPACE, FILE)).href;
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: TEXT } });
  // What lspmcp asks typescript-language-server for a file's settled diagnostics (tsserver's sync
  // diagnostics; its pushes can never be known complete), here straight from the server.
  const file = join(WORKSPACE, FILE);
  await Promise.all(
    ["syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"].map((command) =>
      connection.sendRequest("workspace/executeCommand", { command: "typescript.tsserverRequest", arguments: [command, { file, includeLinePosition: false }] }),
    ),
  );
  const firstDiagnostics = performance.now() - t0;
  const position = { line: AT.line - 1, character: AT.character };
  for (let i = 0; i < 200 && !(await connection.sendRequest("textDocument/hover", { textDocument: { uri }, position })); i++);
  const hover = await samples(RUNS, () => connection.sendRequest("textDocument/hover", { textDocument: { uri }, position }));
  const symbols = await samples(RUNS, () => connection.sendRequest("textDocument/documentSymbol", { textDocument: { uri } }));
  await stop();
  return { firstDiagnostics, hover, symbols };
}

// --- lspmcp through the SDK client
function transportFor(standalone) {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", LSPMCP_LOG_LEVEL: "warn" };
  return new StdioClientTransport({ ...launch(standalone), env, stderr: "inherit" });
}

/**
 * How a client starts lspmcp: the entry as a program (its `#!` line gives node the lean heap
 * flags). Node refuses --cpu-prof in NODE_OPTIONS, so a profiled run starts node itself with the
 * same flags, read from that line; a serve passes its node flags on to the shared server it launches.
 */
function launch(standalone) {
  const args = ["serve", ...(standalone ? ["--standalone"] : []), "--config", CONFIG];
  if (!PROFILE) return { command: MAIN, args };
  const leanFlags = readFileSync(MAIN, "utf8")
    .split("\n", 1)[0]
    .split(" ")
    .filter((word) => word.startsWith("--"));
  return { command: process.execPath, args: [...leanFlags, "--cpu-prof", `--cpu-prof-dir=${PROFILE}`, MAIN, ...args] };
}

/**
 * Spawn to `initialize` answered, then `tools/list`, timed at the wire: a raw newline-delimited
 * JSON-RPC client, because the SDK client's own `listTools` compiles every tool's output schema
 * with ajv (~100 ms here), which is the client's work, not the server's.
 */
async function wireReady(standalone) {
  const { command, args } = launch(standalone);
  const t0 = performance.now();
  const child = spawn(command, args, {
    stdio: ["pipe", "pipe", "ignore"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", LSPMCP_LOG_LEVEL: "warn" },
  });
  const answers = new Map();
  let buffered = "";
  child.stdout.setEncoding("utf8").on("data", (data) => {
    buffered += data;
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      answers.get(message.id)?.(message);
    }
  });
  const request = (id, method, params) =>
    new Promise((answered) => {
      answers.set(id, answered);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-floor", version: "0" } });
  const t1 = performance.now();
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  const list = await request(2, "tools/list", {});
  const t2 = performance.now();
  if (!(list.result?.tools?.length > 0)) throw new Error(`tools/list answered ${JSON.stringify(list)}`);
  const exited = new Promise((done) => child.once("exit", done));
  child.stdin.end();
  await exited;
  return { ready: t2 - t0, initialize: t1 - t0, toolsList: t2 - t1 };
}

/** Spawn to `initialize` answered plus `tools/list`; `tools/list` alone; then the client, still open. */
async function start(standalone) {
  const transport = transportFor(standalone);
  const client = new Client({ name: "bench-floor", version: "0" });
  const t0 = performance.now();
  await client.connect(transport, LONG);
  const t1 = performance.now();
  await client.listTools(undefined, LONG);
  const t2 = performance.now();
  return { client, pid: transport.pid, ready: t2 - t0, initialize: t1 - t0, toolsList: t2 - t1 };
}

async function readiness(standalone) {
  const runs = [];
  for (let i = 0; i < READY_RUNS; i++) runs.push(await wireReady(standalone));
  const median = (key) =>
    quantile(
      runs.map((r) => r[key]),
      0.5,
    );
  return { ready: median("ready"), initialize: median("initialize"), toolsList: median("toolsList") };
}

async function firstDiagnostics(standalone) {
  const t0 = performance.now();
  const { client } = await start(standalone);
  const result = await client.callTool({ name: "diagnostics", arguments: { path: FILE } }, undefined, LONG);
  const ms = performance.now() - t0;
  if (result.isError) throw new Error(`diagnostics failed: ${result.content[0].text}`);
  await client.close();
  return ms;
}

const hoverArgs = { server: "typescript", path: FILE, line: AT.line, column: AT.column };
async function calls(client) {
  for (let i = 0; i < 200; i++) {
    const result = await client.callTool({ name: "hover", arguments: hoverArgs }, undefined, LONG);
    if (!result.isError && result.structuredContent.contents) break;
  }
  const hover = await samples(RUNS, () => client.callTool({ name: "hover", arguments: hoverArgs }));
  const symbols = await samples(RUNS, () => client.callTool({ name: "document_symbols", arguments: { server: "typescript", path: FILE } }));
  return { hover, symbols };
}

/** CPU milliseconds per hover of each process in `pids`, over CPU_CALLS hovers. */
async function cpuPerCall(client, pids) {
  const before = pids.map((pid) => stat(pid).cpuMs);
  for (let i = 0; i < CPU_CALLS; i++) await client.callTool({ name: "hover", arguments: hoverArgs });
  return pids.map((pid, i) => (stat(pid).cpuMs - before[i]) / CPU_CALLS);
}

async function fourReady(client) {
  for (const [server, path] of [
    ["typescript", FILE],
    ["pyright", "src/inventory.py"],
    ["clangd", "src/matrix.c"],
    ["bash", "run.sh"],
  ]) {
    const result = await client.callTool({ name: "document_symbols", arguments: { server, path } }, undefined, LONG);
    if (result.isError) throw new Error(`${server}: ${result.content[0].text}`);
  }
  const { structuredContent } = await client.callTool({ name: "session_status", arguments: {} });
  return structuredContent.sessions.filter((s) => s.state === "ready").length;
}

const leasePid = () => {
  const dir = join(CONFIG_DIR, "leases");
  const name = existsSync(dir) ? readdirSync(dir).find((n) => n.endsWith(".lease")) : undefined;
  return name ? JSON.parse(readFileSync(join(dir, name), "utf8")).pid : undefined;
};
const rssMiB = (pid) => kib(`/proc/${pid}/status`, "VmRSS") / 1024;

const results = {};
const stage = (name) => process.stderr.write(`floor: ${name}\n`);
try {
  stage("direct client");
  results.direct = await direct();
  // Standalone.
  stage("standalone");
  results.standaloneReady = await readiness(true);
  results.standaloneFirst = await firstDiagnostics(true);
  {
    const { client, pid } = await start(true);
    results.standalone = await calls(client);
    [results.standaloneCpu] = await cpuPerCall(client, [pid]);
    results.standaloneSessions = await fourReady(client);
    results.standaloneRss = rssMiB(pid);
    await client.close();
  }
  // Default (attached): the first serve launches the shared server and stays attached, so that
  // the readiness runs find it running.
  {
    stage("default (attached)");
    const holder = await start(false);
    // The serve answered initialize before it attached: the shared server is found or launched meanwhile.
    for (const t0 = performance.now(); leasePid() === undefined && performance.now() - t0 < 600_000; ) await sleep(20);
    const daemon = procOf(leasePid());
    results.attachedFirst = await firstDiagnostics(false);
    results.attachedReady = await readiness(false);
    results.attached = await calls(holder.client);
    [results.forwarderCpu, results.sharedCpu] = await cpuPerCall(holder.client, [holder.pid, daemon.pid]);
    results.sharedSessions = await fourReady(holder.client);
    results.sharedRss = rssMiB(daemon.pid);
    results.forwarderRss = rssMiB(holder.pid);
    await holder.client.close();
    for (let t0 = performance.now(); alive(daemon) && performance.now() - t0 < 20_000; ) await sleep(20);
    if (alive(daemon)) throw new Error("the shared server outlived its last peer");
  }
} finally {
  rmSync(CONFIG_DIR, { recursive: true, force: true });
  rmSync(join(WORKSPACE, ".."), { recursive: true, force: true });
}

const r = results;
const rows = [];
const row = (what, measured, target, ok, ratio) => rows.push({ what, measured, target, ok, ratio });
const ms = (x) => `${x.toFixed(2)} ms`;
row(
  "ready standalone (spawn → initialize + tools/list)",
  ms(r.standaloneReady.ready),
  "< 150 ms",
  r.standaloneReady.ready < 150,
  `initialize ${ms(r.standaloneReady.initialize)}`,
);
row(
  "ready default (spawn → initialize + tools/list)",
  ms(r.attachedReady.ready),
  "< 150 ms",
  r.attachedReady.ready < 150,
  `initialize ${ms(r.attachedReady.initialize)}`,
);
row("tools/list standalone", ms(r.standaloneReady.toolsList), "< 5 ms", r.standaloneReady.toolsList < 5, "");
row("tools/list default", ms(r.attachedReady.toolsList), "< 5 ms", r.attachedReady.toolsList < 5, "");
for (const [label, value] of [
  ["standalone", r.standaloneFirst],
  ["default", r.attachedFirst],
]) {
  row(
    `first diagnostics from spawn, ${label}`,
    ms(value),
    `< direct ${ms(r.direct.firstDiagnostics)} + 100 ms`,
    value < r.direct.firstDiagnostics + 100,
    `${(value / r.direct.firstDiagnostics).toFixed(2)}x direct`,
  );
}
for (const [op, name] of [
  ["hover", "hover"],
  ["symbols", "document_symbols"],
]) {
  for (const [mode, figures, p50Target, p95Target] of [
    ["standalone", r.standalone, 0.5, null],
    ["default", r.attached, 1.0, 2.0],
  ]) {
    const added50 = figures[op].p50 - r.direct[op].p50;
    const added95 = figures[op].p95 - r.direct[op].p95;
    row(
      `${name} ${mode} p50 added`,
      `${ms(added50)} (${ms(figures[op].p50)} vs ${ms(r.direct[op].p50)})`,
      `< ${p50Target} ms`,
      added50 < p50Target,
      `${(figures[op].p50 / r.direct[op].p50).toFixed(2)}x direct`,
    );
    if (p95Target !== null) {
      row(
        `${name} ${mode} p95 added`,
        `${ms(added95)} (${ms(figures[op].p95)} vs ${ms(r.direct[op].p95)})`,
        `< ${p95Target} ms`,
        added95 < p95Target,
        `${(figures[op].p95 / r.direct[op].p95).toFixed(2)}x direct`,
      );
    }
  }
}
for (const [label, value] of [
  ["standalone bridge", r.standaloneCpu],
  ["forwarder", r.forwarderCpu],
  ["shared server", r.sharedCpu],
]) {
  row(`CPU per hover, ${label} (${CPU_CALLS} calls)`, `${value.toFixed(3)} ms`, "< 0.3 ms", value < 0.3, `${(value / 0.3).toFixed(2)}x target`);
}
row(
  `RSS standalone bridge, ${r.standaloneSessions} ready sessions`,
  `${r.standaloneRss.toFixed(1)} MiB`,
  "< 80 MiB",
  r.standaloneRss < 80,
  `${(r.standaloneRss / 80).toFixed(2)}x target`,
);
row(
  `RSS shared server, ${r.sharedSessions} ready sessions`,
  `${r.sharedRss.toFixed(1)} MiB`,
  "< 80 MiB",
  r.sharedRss < 80,
  `${(r.sharedRss / 80).toFixed(2)}x target`,
);
row("RSS attached serve (forwarder)", `${r.forwarderRss.toFixed(1)} MiB`, "< 50 MiB", r.forwarderRss < 50, `${(r.forwarderRss / 50).toFixed(2)}x target`);

console.log(`the default path at the floor (typescript-language-server, ${FILE}; p50/p95 of ${RUNS} calls; wall-clock figures depend on the machine's load)`);
const width = Math.max(...rows.map((x) => x.what.length));
for (const x of rows)
  console.log(`  ${x.what.padEnd(width)}  ${x.measured.padEnd(34)} target ${x.target.padEnd(24)} ${x.ok ? "met    " : "NOT met"}  ${x.ratio}`);
