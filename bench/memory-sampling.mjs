// What the memory watch of issue 26 costs (run after `npm run build`). A real session —
// typescript-language-server and its tsserver on the `nav` fixture, under the real supervisor — and:
//   1. one sample as the supervisor takes it (scanTree with its token memo, then measureTree),
//      repeated here in-process: wall time and CPU per sample, the first (cold memo) apart;
//   2. the supervisor's own CPU over a quiet window, sampling each second and sampling only once
//      (an hour's interval): the difference is what the watch costs the supervisor, the rest is
//      its owner check (4 a second) and Node's own timers;
//   3. hover latency through the supervised server at the shipped rate (a sample a second) and at
//      100 times it (every 10 ms): if a hundredfold rate does not move p50/p99, one a second
//      cannot delay an answer.
// A sample reads every process's /proc/PID/stat, so its cost grows with the machine's process
// count: --extra-processes N starts N idle `sleep`s for the run (ended at its end) to show how.
// Usage: node bench/memory-sampling.mjs [--hovers N] [--quiet-s S] [--extra-processes N] [--json]
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { spawnSupervised } from "../dist/src/supervision/spawn-supervised.js";
import { scrubbedEnv, TOKEN_VAR } from "../dist/src/supervision/server-env.js";
import { scanTree } from "../dist/src/supervision/tree-scan.js";
import { measureTree } from "../dist/src/supervision/memory-watch.js";
import { identify, readEnvironValue } from "../dist/src/supervision/proc-table.js";
import { positionOf } from "./direct-lsp.mjs";
import { stat } from "./proc.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TSLS = join(REPO, "node_modules/.bin/typescript-language-server");
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const HOVERS = option("--hovers", 300);
const QUIET_S = option("--quiet-s", 20);
const SAMPLES = 500;
const EXTRA = option("--extra-processes", 0);
const sleepers = Array.from({ length: EXTRA }, () => spawn("sleep", ["600"], { stdio: "ignore" }));

const root = mkdtempSync(join(tmpdir(), "lspmcp-sampling-"));
cpSync(join(REPO, "tests/fixtures/workspaces/nav"), root, { recursive: true });
const file = join(root, "ts/report.ts");
const text = readFileSync(file, "utf8");
const uri = pathToFileURL(file).href;
const at = positionOf(text, "totalArea([");

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n, digits = 3) => Number(n.toFixed(digits));

/** A supervised typescript-language-server, initialized, with report.ts open and answered once. */
async function startSession(memorySampleMs) {
  const server = await spawnSupervised({ command: TSLS, args: ["--stdio"], env: scrubbedEnv({}), cwd: root, label: "bench/typescript" }, { memorySampleMs });
  server.stderr.resume();
  const connection = createMessageConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  connection.onRequest(() => null);
  connection.listen();
  const rootUri = pathToFileURL(root).href;
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: "nav" }],
    capabilities: {},
    initializationOptions: { disableAutomaticTypingAcquisition: true, tsserver: { useSyntaxServer: "never" } },
  });
  await connection.sendNotification("initialized", {});
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text } });
  await hover(connection);
  const stop = async () => {
    await connection.sendRequest("shutdown").catch(() => {});
    await connection.sendNotification("exit").catch(() => {});
    await server.stop();
    connection.dispose();
  };
  return { server, connection, stop };
}

const hover = (connection) => connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: { line: at.line - 1, character: at.character } });

async function hoverLatencies(connection) {
  for (let i = 0; i < 30; i++) await hover(connection);
  const times = [];
  for (let i = 0; i < HOVERS; i++) {
    const t0 = performance.now();
    await hover(connection);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 50)), p99_ms: round(percentile(times, 99)) };
}

/** The supervisor's scan and measure, as it runs them, SAMPLES times here. */
function sampleCost(server) {
  const token = readEnvironValue(server.serverPid, TOKEN_VAR);
  const query = {
    token,
    roots: [identify(server.serverPid)],
    sessionId: server.supervisorPid,
    // The supervisor leaves itself out (it is the scanning process there).
    exclude: [server.supervisorPid],
    notBefore: identify(server.supervisorPid).startTime,
    tokenMemo: new Map(),
  };
  const once = () => measureTree(scanTree(query));
  let t0 = performance.now();
  const first = once();
  const coldMs = performance.now() - t0;
  const cpu0 = process.cpuUsage();
  t0 = performance.now();
  let last = first;
  for (let i = 0; i < SAMPLES; i++) last = once();
  const wallMs = (performance.now() - t0) / SAMPLES;
  const cpu = process.cpuUsage(cpu0);
  return {
    proc_processes: readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length,
    tree_processes: last.processes,
    tree_rss_mb: round(last.rssKiB / 1024, 1),
    cold_sample_ms: round(coldMs),
    sample_wall_ms: round(wallMs),
    sample_cpu_ms: round((cpu.user + cpu.system) / 1000 / SAMPLES),
  };
}

/** The supervisor's CPU (utime + stime, 10 ms ticks) over QUIET_S seconds with no call. */
async function supervisorCpu(server) {
  const before = stat(server.supervisorPid).cpuMs;
  await new Promise((resolve) => setTimeout(resolve, QUIET_S * 1000));
  const spent = stat(server.supervisorPid).cpuMs - before;
  return { quiet_s: QUIET_S, supervisor_cpu_ms: spent, supervisor_cpu_ms_per_s: round(spent / QUIET_S, 2) };
}

const results = {};
try {
  const shipped = await startSession(1000);
  try {
    results.sample = sampleCost(shipped.server);
    results.supervisor_sampling_1000ms = await supervisorCpu(shipped.server);
    results.hover_sampling_1000ms = await hoverLatencies(shipped.connection);
  } finally {
    await shipped.stop();
  }
  const once = await startSession(3_600_000);
  try {
    results.supervisor_sampling_once = await supervisorCpu(once.server);
  } finally {
    await once.stop();
  }
  const hundredfold = await startSession(10);
  try {
    results.hover_sampling_10ms = await hoverLatencies(hundredfold.connection);
  } finally {
    await hundredfold.stop();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
  for (const sleeper of sleepers) sleeper.kill();
}

if (argv.includes("--json")) console.log(JSON.stringify(results));
else {
  const { sample, supervisor_sampling_1000ms: each, supervisor_sampling_once: none } = results;
  console.log(`processes in /proc: ${sample.proc_processes}; tree: ${sample.tree_processes} processes, ${sample.tree_rss_mb} MiB`);
  console.log(
    `one sample: first (cold memo) ${sample.cold_sample_ms} ms; then ${sample.sample_wall_ms} ms wall, ${sample.sample_cpu_ms} ms CPU (mean of ${SAMPLES})`,
  );
  console.log(`supervisor CPU with no call, over ${QUIET_S} s: ${each.supervisor_cpu_ms} ms sampling each second, ${none.supervisor_cpu_ms} ms sampling once`);
  console.log(`  the watch's share: ${round((each.supervisor_cpu_ms - none.supervisor_cpu_ms) / QUIET_S, 2)} ms per sample`);
  console.log(`hover p50/p99, a sample a second: ${results.hover_sampling_1000ms.p50_ms} / ${results.hover_sampling_1000ms.p99_ms} ms`);
  console.log(`hover p50/p99, a sample every 10 ms: ${results.hover_sampling_10ms.p50_ms} / ${results.hover_sampling_10ms.p99_ms} ms`);
}
