// Shared-bridge benchmark (run after `npm run build`). Why: the shared mode exists so that N agent
// workers on one checkout stop paying for N full sets of language servers. This measures exactly
// that claim, both modes in the same run on the same machine:
//   (a) WORKERS `lspmcp serve --standalone` bridges, each with its own servers;
//   (b) WORKERS `lspmcp serve` forwarders attached to one detached `lspmcp shared-server`.
// Each worker is the SDK's MCP client running the same fixed script of CALLS tool calls
// (diagnostics, hover, document_symbols, workspace_symbols over a .ts, a .py and a .c file), all
// workers at once, after one untimed pass over the script's distinct calls (so that no server
// start is timed). Per mode: total RSS (and PSS, which counts shared pages once) of every process
// involved — the serve processes and all their descendants, plus in (b) the daemon and all of its
// descendants, by /proc parent links — sampled during the run (max) and after the last call, per
// process role with the CPU each spent in the script; client-side p50/p95 latency. Then (b)/(a) as
// ratios against the goal (memory < 40%, p95 <= 1.2x). A missed goal is reported, not an error.
// After each mode every client is closed and every process of the mode must leave /proc before a
// deadline (in (b) the daemon goes linger_ms after its last peer), else the bench fails; so does
// any failed call.
// Usage: node bench/shared.mjs [--calls 200] [--workers 4]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { alive, kib, stat, treeWhere } from "./proc.mjs";
import { positionOf } from "./direct-lsp.mjs";
import { lspmcpTransport, MAIN } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const APP = join(REPO, "examples/app");
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const value = Number(argv[argv.indexOf(name) + 1]);
  return argv.includes(name) && Number.isInteger(value) && value > 0 ? value : fallback;
};
const CALLS = option("--calls", 200);
const WORKERS = option("--workers", 4);
const LINGER_MS = 500;
const GONE_DEADLINE_MS = 20_000;
const GOAL = { memory: 0.4, p95: 1.2 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the script: every tool on every file; hover on an identifier found by its text.
const FILES = [
  { server: "typescript", path: "src/greet.ts", hoverAt: "greet(name", query: "greet" },
  { server: "pyright", path: "src/stats.py", hoverAt: "mean([", query: "Summary" },
  { server: "clangd", path: "src/vector.c", hoverAt: "dot(v, v)", query: "dot" },
];
function at(path, needle) {
  const { line, column } = positionOf(readFileSync(join(APP, path), "utf8"), needle);
  return { line, column };
}
const DISTINCT = FILES.flatMap(({ server, path, hoverAt, query }) => [
  { name: "diagnostics", arguments: { path } },
  { name: "hover", arguments: { path, ...at(path, hoverAt) } },
  { name: "document_symbols", arguments: { path } },
  { name: "workspace_symbols", arguments: { server, query } },
]);
// Interleaved so that consecutive calls go to different servers: file = i % 3, tool = (i / 3) % 4.
const SCRIPT = Array.from({ length: CALLS }, (_, i) => DISTINCT[(i % 3) * 4 + (Math.floor(i / 3) % 4)]);

/** The roots and every live descendant of them, by /proc parent links. */
const treeOf = (roots) => treeWhere((pid) => roots.includes(pid));
function role(pid) {
  let args = [];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {}
  const has = (s) => args.some((a) => a.includes(s));
  if (args.includes("shared-server")) return "shared-server daemon";
  if (args.includes("serve")) return args.includes("--standalone") ? "serve (standalone bridge)" : "serve (forwarder)";
  for (const name of ["--supervise", "typingsInstaller", "tsserver", "typescript-language-server", "pyright", "clangd"]) {
    if (has(name)) return name === "--supervise" ? "supervisor" : name;
  }
  return args.join(" ").slice(0, 40);
}
const totalRssMiB = (procs) => procs.reduce((sum, p) => sum + (alive(p) ? kib(`/proc/${p.pid}/status`, "VmRSS") : 0), 0) / 1024;
const leasePid = (dir) => {
  const name = existsSync(join(dir, "leases")) ? readdirSync(join(dir, "leases")).find((n) => n.endsWith(".lease")) : undefined;
  return name ? JSON.parse(readFileSync(join(dir, "leases", name), "utf8")).pid : undefined;
};

/** Closes the clients, then waits for every process of `procs` to leave /proc; kills and throws on leftovers. */
async function closeAndWait(label, workers, procs) {
  await Promise.all(workers.map((w) => w.client.close().catch(() => {})));
  const t0 = performance.now();
  while (procs.some(alive) && performance.now() - t0 < GONE_DEADLINE_MS) await sleep(20);
  const left = procs.filter(alive);
  for (const p of left) console.error(`${label}: LEFT OVER ${GONE_DEADLINE_MS} ms after close: pid ${p.pid} ${role(p.pid)}`);
  for (const p of left) process.kill(p.pid, "SIGKILL");
  if (left.length > 0) throw new Error(`${label}: ${left.length} processes outlived their mode`);
  return performance.now() - t0;
}

// --- one mode: start the workers, warm up, run the script concurrently, measure, close, wait.
async function runMode(label, dir, standalone) {
  const config = join(dir, "bridge.toml");
  const stderr = [];
  const failures = [];
  const call = async (client, request) => {
    const t0 = performance.now();
    const result = await client.callTool(request, undefined, { timeout: 120_000 }).catch((error) => ({ isError: true, content: [{ text: String(error) }] }));
    const ms = performance.now() - t0;
    if (result.isError) failures.push({ request, ms, error: result.content?.[0]?.text?.slice(0, 300) });
    return { tool: request.name, ms };
  };
  const workers = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const transport = lspmcpTransport(["serve", ...(standalone ? ["--standalone"] : []), "--config", config], { stderr: "pipe" });
      transport.stderr.on("data", (chunk) => stderr.push(chunk.toString("utf8")));
      const client = new Client({ name: "bench-shared", version: "0" });
      await client.connect(transport);
      return { client, pid: transport.pid };
    }),
  );
  const roots = () => [...workers.map((w) => w.pid), ...(standalone ? [] : [leasePid(dir)].filter(Boolean))];
  try {
    await Promise.all(
      workers.map(async (w) => {
        for (const request of DISTINCT) await call(w.client, request);
      }),
    );
    const warmupFailures = failures.splice(0);
    if (!standalone) {
      const status = JSON.parse(spawnSync(process.execPath, [MAIN, "status", "--config", config, "--format", "json"], { encoding: "utf8" }).stdout);
      if (status.server?.pid !== leasePid(dir) || status.peers.length !== WORKERS) {
        throw new Error(`expected one shared server (lease pid ${leasePid(dir)}) with ${WORKERS} peers, status says: ${JSON.stringify(status)}`);
      }
    }
    let sampling = true;
    let maxRss = 0;
    const sampler = (async () => {
      for (; sampling; await sleep(250)) maxRss = Math.max(maxRss, totalRssMiB(treeOf(roots())));
    })();
    const cpuBefore = new Map(treeOf(roots()).map((p) => [`${p.pid}:${p.start}`, p.cpuMs]));
    const clientCpu = process.cpuUsage();
    const started = performance.now();
    const samples = (
      await Promise.all(
        workers.map(async (w) => {
          const mine = [];
          for (const request of SCRIPT) mine.push(await call(w.client, request));
          return mine;
        }),
      )
    ).flat();
    const wallMs = performance.now() - started;
    const { user, system } = process.cpuUsage(clientCpu);
    sampling = false;
    await sampler;
    // After the last call, before closing: every process of the mode, by role.
    const procs = treeOf(roots());
    const byRole = new Map();
    for (const p of procs) {
      const r = byRole.get(role(p.pid)) ?? { count: 0, rss: 0, pss: 0, cpu: 0 };
      r.count++;
      r.cpu += (stat(p.pid)?.cpuMs ?? 0) - (cpuBefore.get(`${p.pid}:${p.start}`) ?? 0);
      r.rss += kib(`/proc/${p.pid}/status`, "VmRSS") / 1024;
      r.pss += kib(`/proc/${p.pid}/smaps_rollup`, "Pss") / 1024;
      byRole.set(role(p.pid), r);
    }
    if (!standalone && procs.some((p) => workers.some((w) => w.pid === p.ppid))) throw new Error("a forwarder has children of its own");
    const goneMs = await closeAndWait(label, workers, procs);
    const logs = standalone || !existsSync(join(dir, "leases")) ? [] : readdirSync(join(dir, "leases")).filter((n) => n.endsWith(".log"));

    const q = (xs, p) => xs[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)];
    const summary = (xs) => ((xs = xs.map((s) => s.ms).sort((l, m) => l - m)), { p50: q(xs, 0.5), p95: q(xs, 0.95), max: xs.at(-1) });
    const tools = [...new Set(DISTINCT.map((r) => r.name))];
    const sum = (key) => [...byRole.values()].reduce((s, r) => s + r[key], 0);
    return {
      label,
      byRole,
      count: procs.length,
      rss: sum("rss"),
      pss: sum("pss"),
      maxRss: Math.max(maxRss, sum("rss")),
      ...summary(samples),
      perTool: tools.map((t) => [t, summary(samples.filter((s) => s.tool === t))]),
      wallMs,
      goneMs,
      clientCpuMs: (user + system) / 1000,
      failures,
      warmupFailures,
      stderr: stderr.join("") + logs.map((n) => readFileSync(join(dir, "leases", n), "utf8")).join(""),
    };
  } catch (error) {
    await closeAndWait(label, workers, treeOf(roots())).catch((e) => console.error(e.message));
    throw error;
  }
}

const dir = mkdtempSync(join(tmpdir(), "lspmcp-bench-shared-"));
writeFileSync(
  join(dir, "bridge.toml"),
  `[shared]\nlease_dir = "leases"\nlinger_ms = ${LINGER_MS}\n` +
    FILES.map((f) => `[[server]]\nname = "${f.server}"\nprofile = "${f.server}"\n`).join("") +
    `[[workspace]]\nname = "app"\nroot = ${JSON.stringify(APP)}\nservers = ${JSON.stringify(FILES.map((f) => f.server))}\n`,
);
let results;
try {
  results = [await runMode("(a) standalone", dir, true), await runMode("(b) shared", dir, false)];
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const [a, b] = results;
const mib = (x) => `${x.toFixed(0).padStart(5)} MiB`;
const ms = (x) => `${x.toFixed(1).padStart(6)} ms`;
console.log(`${WORKERS} workers x ${CALLS} calls each, concurrently (typescript, pyright, clangd on examples/app)`);
console.log(`  mode            procs  RSS after  RSS max    PSS after    p50       p95       max        wall    gone after close`);
for (const r of results) {
  console.log(
    `  ${r.label.padEnd(15)} ${String(r.count).padStart(5)} ${mib(r.rss)} ${mib(r.maxRss)} ${mib(r.pss)}  ${ms(r.p50)} ${ms(r.p95)} ${ms(r.max)}  ${(r.wallMs / 1000).toFixed(1).padStart(5)} s  ${r.goneMs.toFixed(0)} ms`,
  );
}
for (const r of results) {
  console.log(`  ${r.label} by process (CPU = seconds spent during the ${WORKERS * CALLS} timed calls):`);
  for (const [name, x] of [...r.byRole].sort((l, m) => m[1].rss - l[1].rss)) {
    console.log(`    ${name.padEnd(26)} x${String(x.count).padEnd(3)} RSS ${mib(x.rss)}  PSS ${mib(x.pss)}  CPU ${(x.cpu / 1000).toFixed(2).padStart(5)} s`);
  }
  console.log(`    ${"(MCP clients, this process; not counted)".padEnd(52)} CPU ${(r.clientCpuMs / 1000).toFixed(2).padStart(5)} s`);
  console.log(`    per tool:${r.perTool.map(([t, x]) => ` ${t} p50 ${x.p50.toFixed(1)} p95 ${x.p95.toFixed(1)} max ${x.max.toFixed(0)} ms`).join(";")}`);
}
const memory = b.rss / a.rss;
const p95 = b.p95 / a.p95;
console.log(
  `ratios (b)/(a): RSS ${(memory * 100).toFixed(1)}% (max ${((b.maxRss / a.maxRss) * 100).toFixed(1)}%, PSS ${((b.pss / a.pss) * 100).toFixed(1)}%)  p95 ${p95.toFixed(2)}x  p50 ${(b.p50 / a.p50).toFixed(2)}x`,
);
console.log(
  `goal: RSS < ${GOAL.memory * 100}% of (a): ${memory < GOAL.memory ? "met" : "NOT met"}; p95 <= ${GOAL.p95}x (a): ${p95 <= GOAL.p95 ? "met" : "NOT met"}`,
);
for (const r of results) {
  for (const [phase, list] of [
    ["warm-up", r.warmupFailures],
    ["timed", r.failures],
  ]) {
    for (const f of list.slice(0, 5))
      console.log(`  ${r.label} ${phase} call failed: ${f.request.name} ${JSON.stringify(f.request.arguments)} after ${f.ms.toFixed(0)} ms: ${f.error}`);
  }
  if (r.stderr.trim())
    console.log(
      `  ${r.label} stderr (serve, then shared-server log):\n${r.stderr
        .trim()
        .split("\n")
        .slice(-10)
        .map((l) => `    ${l}`)
        .join("\n")}`,
    );
}
if (results.some((r) => r.failures.length + r.warmupFailures.length > 0)) {
  console.error(`failed calls: ${results.map((r) => `${r.label} ${r.failures.length} timed, ${r.warmupFailures.length} warm-up`).join("; ")}`);
  process.exitCode = 1;
}
