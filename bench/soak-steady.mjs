// The plateau soak (issue 26): one lspmcp, standalone or attached to a shared server, answers
// `warmup` and then `calls` sequential calls (diagnostics, document symbols, hover, session status)
// over 20 TypeScript files, one of them rewritten on disk every 25 calls so that didChange is part
// of the load. The RSS of each lspmcp process (the standalone bridge; or the shared server and the
// forwarder) is read from /proc every `every` calls, and its growth after warm-up is judged against
// the plateau (PLATEAU_LIMITS in soak-stats.mjs). With `heap`, the processes carry the heap probe
// and each sample also holds their heap used after a full GC (which the probe's collections then
// also keep low: RSS is judged only in a run without it). With LSPMCP_HEAP_SNAPSHOT=1 as well,
// each probe also writes a heap snapshot; LSPMCP_SOAK_KEEP=1 keeps them.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { heapProbeEnv, readHeap } from "./heap-probe.mjs";
import { lspmcpTransport } from "./lspmcp-process.mjs";
import { stat } from "./proc.mjs";
import { levelKiB, peakKiB, PLATEAU_LIMITS, plateauVerdict, rssKiB } from "./soak-stats.mjs";

const FILES = 20;
const EDIT_EVERY = 25;
const source = (i, generation) =>
  `export function gen_${i}_${generation}(value: number): number {\n  return value + ${i};\n}\n\nexport const checked${i}: number = ${generation % 2 === 1 ? '"not a number"' : i};\n`;

function writeWorkspace(dir, shared) {
  const root = join(dir, "ws");
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ES2022" }, include: ["src"] }));
  for (let i = 0; i < FILES; i++) writeFileSync(join(root, `src/f${i}.ts`), source(i, 0));
  const config = join(dir, "bridge.toml");
  writeFileSync(
    config,
    `[bridge]\nrequest_timeout_ms = 60000\n${shared ? `\n[shared]\nlease_dir = ${JSON.stringify(join(dir, "leases"))}\nlinger_ms = 500\n` : ""}
[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "soak"
root = ${JSON.stringify(root)}
servers = ["typescript"]
`,
  );
  return { root, config };
}

function callFor(n, root) {
  const i = n % FILES;
  const path = `src/f${i}.ts`;
  if (n % EDIT_EVERY === EDIT_EVERY - 1) writeFileSync(join(root, path), source(i, n));
  switch (Math.floor(n / FILES) % 5) {
    case 0:
    case 3:
      return { name: "diagnostics", arguments: { path } };
    case 1:
      return { name: "document_symbols", arguments: { path } };
    case 2:
      return { name: "hover", arguments: { path, line: 1, column: "export function ".length + 1 } };
    default:
      return { name: "session_status", arguments: {} };
  }
}

/** Runs one target; resolves with its report (samples, a verdict per process, failures). */
export async function soakSteady({ target, warmup, calls, every, heap = false, limits = { ...PLATEAU_LIMITS, window_calls: calls }, log }) {
  const dir = mkdtempSync(join(tmpdir(), `lspmcp-soak-${target}-`));
  const probeDir = join(dir, "probe");
  mkdirSync(probeDir);
  const shared = target === "shared";
  const { root, config } = writeWorkspace(dir, shared);
  const transport = lspmcpTransport(["serve", ...(shared ? [] : ["--standalone"]), "--config", config], { env: heap ? heapProbeEnv(probeDir) : {} });
  const client = new Client({ name: "lspmcp-soak", version: "0" });
  await client.connect(transport);
  // A call is answered by the sessions' process itself: after it, a shared server and its lease exist.
  await client.callTool({ name: "session_status", arguments: {} });
  const processes = { [shared ? "forwarder" : "standalone"]: transport.pid };
  if (shared) {
    const leases = join(dir, "leases");
    processes.shared_server = JSON.parse(
      readFileSync(
        join(
          leases,
          readdirSync(leases).find((name) => name.endsWith(".lease")),
        ),
        "utf8",
      ),
    ).pid;
  }
  const names = Object.keys(processes);

  const samples = [];
  const sample = async (done) => {
    const row = { calls: done };
    for (const name of names) row[`${name}_kib`] = rssKiB(processes[name]);
    if (heap)
      for (const name of names) {
        const probe = await readHeap(processes[name], probeDir);
        row[`${name}_heap_kib`] = Math.round((probe?.heap_used ?? NaN) / 1024);
        row[`${name}_heap_total_kib`] = Math.round((probe?.heap_total ?? NaN) / 1024);
        row[`${name}_external_kib`] = Math.round((probe?.external ?? NaN) / 1024);
        row[`${name}_rss_after_gc_kib`] = Math.round((probe?.rss ?? NaN) / 1024);
      }
    samples.push(row);
    if (done % (every * 20) === 0) log(`[soak ${target}] ${JSON.stringify(row)}`);
  };
  const failures = [];
  const started = Date.now();
  const total = warmup + calls;
  for (let n = 0; n < total; n++) {
    const call = callFor(n, root);
    const result = await client.callTool(call, undefined, { timeout: 120_000 }).catch((error) => ({ isError: true, content: [{ text: String(error) }] }));
    if (result.isError) failures.push(`${call.name} ${JSON.stringify(call.arguments)}: ${result.content?.[0]?.text?.slice(0, 300)}`);
    if ((n + 1) % every === 0) await sample(n + 1);
  }
  const elapsedMs = Date.now() - started;
  const peaks = Object.fromEntries(names.map((name) => [name, peakKiB(processes[name])]));
  const cpu = Object.fromEntries(names.map((name) => [name, stat(processes[name])?.cpuMs ?? null]));
  await client.close();
  // LSPMCP_SOAK_KEEP=1 keeps the run's folder: the probe's lines and heap snapshots are in probe/.
  if (process.env.LSPMCP_SOAK_KEEP === "1") log(`[soak ${target}] kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });

  const x = (s) => s.calls;
  const plateau = Object.fromEntries(names.map((name) => [name, plateauVerdict(samples, x, (s) => s[`${name}_kib`], limits)]));
  // Heap used after a full GC at the end of the run against the end of warm-up: what calls left behind.
  const heapAt = (name, calls) => levelKiB(samples, x, (s) => s[`${name}_heap_kib`], calls, calls);
  const heapGrowth = heap ? Object.fromEntries(names.map((name) => [name, heapAt(name, total) - heapAt(name, warmup)])) : undefined;
  return {
    mode: target,
    warmup,
    calls,
    every,
    elapsed_ms: elapsedMs,
    failures: failures.length,
    first_failures: failures.slice(0, 5),
    peak_rss_kib: peaks,
    cpu_ms: cpu,
    plateau,
    ...(heap ? { heap_growth_after_gc_kib: heapGrowth } : {}),
    ok: failures.length === 0 && Object.values(plateau).every((verdict) => verdict.ok),
    samples,
  };
}
