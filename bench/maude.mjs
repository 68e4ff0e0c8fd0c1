// Benchmark of the Maude diagnostics server (run after `npm run build`):
//  1. p50 latency of one check through the server (didOpen → publishDiagnostics, jsonrpc client
//     over stdio) against a bare `maude` run on the same file in the same run, as a ratio;
//  2. checks/second on a generated 20-file workspace with the default concurrency (and with 2).
//  3. when the bridge is built (dist/lspmcp/main.js): the same through lspmcp's `diagnostics` tool
//     over MCP, where each call follows a change of the file on disk (so each is a real check).
// Usage: node bench/maude.mjs [--runs N] [--json]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = resolve(ROOT, "servers/maude/bin/lspmcp-maude-server");
const MAUDE = "/usr/bin/maude";
const FLAGS = ["-no-banner", "-no-advise", "-no-ansi-color", "-no-tecla", "-no-wrap", "-batch"];
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) > 0 ? Number(args[args.indexOf("--runs") + 1]) : 30;
const FILES = ["tests/fixtures/maude/clean.maude", "tests/fixtures/maude/many-warnings.maude"];

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function bareRun(file) {
  return new Promise((resolveRun, reject) => {
    const t0 = performance.now();
    const child = spawn(MAUDE, [...FLAGS, file], { cwd: dirname(file), stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => resolveRun(performance.now() - t0));
  });
}

/** A server process with a client; `check(file)` opens, waits for the publication, closes. */
async function startServer(initializationOptions = {}) {
  const child = spawn(BIN, ["--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  conn.onNotification("textDocument/publishDiagnostics", (p) => {
    const key = `${p.uri}#${p.version}`;
    waiting.get(key)?.(p);
    waiting.delete(key);
  });
  conn.listen();
  await conn.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions });
  await conn.sendNotification("initialized", {});
  let version = 0;
  const published = (uri, v) =>
    new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no diagnostics for ${uri} v${v} within 120 s`)), 120_000);
      waiting.set(`${uri}#${v}`, (p) => {
        clearTimeout(timer);
        res(p);
      });
    });
  return {
    async open(file, text) {
      const uri = pathToFileURL(file).href;
      const v = ++version;
      const done = published(uri, v);
      await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "maude", version: v, text } });
      return done.then(async (p) => {
        await conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
        return p;
      });
    },
    async stop() {
      await conn.sendRequest("shutdown");
      await conn.sendNotification("exit");
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
      conn.dispose();
    },
  };
}

async function latency() {
  const { readFileSync } = await import("node:fs");
  const server = await startServer();
  const rows = [];
  for (const rel of FILES) {
    const file = resolve(ROOT, rel);
    const text = readFileSync(file, "utf8");
    await bareRun(file); // warm the page cache for both sides
    await server.open(file, text);
    const bare = [];
    const through = [];
    // Interleaved, so both sides see the same machine load.
    for (let i = 0; i < RUNS; i++) {
      bare.push(await bareRun(file));
      const t0 = performance.now();
      await server.open(file, text);
      through.push(performance.now() - t0);
    }
    rows.push({
      file: rel,
      runs: RUNS,
      bare_p50_ms: +p50(bare).toFixed(2),
      server_p50_ms: +p50(through).toFixed(2),
      ratio: +(p50(through) / p50(bare)).toFixed(3),
    });
  }
  await server.stop();
  return rows;
}

function generateWorkspace(n) {
  const dir = mkdtempSync(join(tmpdir(), "maude-bench-ws-"));
  const files = [];
  for (let i = 0; i < n; i++) {
    const lines = [`*** generated file ${i}`, `fmod GEN${i} is`, "  protecting NAT .", `  sort S${i} .`, `  op f${i} : Nat -> Nat .`, "  var N : Nat ."];
    for (let k = 0; k < 20; k++) lines.push(`  eq f${i}(${k}) = ${k} + ${i} .`);
    if (i % 4 === 0) lines.push(`  op bad${i} : -> Undeclared${i} .`); // a warning in some files
    lines.push("endfm", `red in GEN${i} : f${i}(3) .`);
    const file = join(dir, `gen-${i}.maude`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    files.push({ file, text: `${lines.join("\n")}\n` });
  }
  return { dir, files };
}

async function throughput(concurrency) {
  const { dir, files } = generateWorkspace(20);
  const server = await startServer({ maxConcurrentChecks: concurrency });
  await server.open(files[0].file, files[0].text); // start-up is not part of the measurement
  const t0 = performance.now();
  await Promise.all(files.map((f) => server.open(f.file, f.text)));
  const seconds = (performance.now() - t0) / 1000;
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { files: files.length, maxConcurrentChecks: concurrency, seconds: +seconds.toFixed(3), checks_per_second: +(files.length / seconds).toFixed(2) };
}

async function throughBridge() {
  const { existsSync, readFileSync } = await import("node:fs");
  const { lspmcpTransport, MAIN } = await import("./lspmcp-process.mjs");
  if (!existsSync(MAIN)) return null;
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { dir, files } = generateWorkspace(20);
  const config = join(dir, "bridge.toml");
  writeFileSync(config, `[[server]]\nname = "maude"\nprofile = "maude"\n\n[[workspace]]\nname = "bench"\nroot = ${JSON.stringify(dir)}\nservers = ["maude"]\n`);
  const client = new Client({ name: "maude-bench", version: "0" });
  await client.connect(lspmcpTransport(["serve", "--standalone", "--config", config]));
  const call = async (args) => {
    const r = await client.callTool({ name: "diagnostics", arguments: args });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return r.structuredContent;
  };
  const rows = [];
  for (const rel of FILES) {
    const file = join(dir, rel.split("/").at(-1));
    const original = readFileSync(resolve(ROOT, rel), "utf8");
    writeFileSync(file, original);
    await call({ path: file }); // session start is not part of the measurement
    const bare = [];
    const through = [];
    for (let i = 0; i < RUNS; i++) {
      writeFileSync(file, `${original}*** run ${i}\n`); // new bytes: the bridge re-syncs, the server re-checks
      bare.push(await bareRun(file));
      const t0 = performance.now();
      await call({ path: file });
      through.push(performance.now() - t0);
    }
    rows.push({
      file: rel,
      runs: RUNS,
      bare_p50_ms: +p50(bare).toFixed(2),
      lspmcp_p50_ms: +p50(through).toFixed(2),
      ratio: +(p50(through) / p50(bare)).toFixed(3),
    });
  }
  const t0 = performance.now();
  await call({ paths: files.map((f) => f.file) });
  const seconds = (performance.now() - t0) / 1000;
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  return { latency: rows, throughput: { files: files.length, seconds: +seconds.toFixed(3), checks_per_second: +(files.length / seconds).toFixed(2) } };
}

const result = { latency: await latency(), throughput: [await throughput(1), await throughput(2)], lspmcp: await throughBridge() };
if (args.includes("--json")) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else {
  for (const r of result.latency) {
    console.log(`${r.file}: bare maude p50 ${r.bare_p50_ms} ms, through the server p50 ${r.server_p50_ms} ms, ratio ${r.ratio} (${r.runs} runs)`);
  }
  for (const t of result.throughput) {
    console.log(`20-file workspace, maxConcurrentChecks=${t.maxConcurrentChecks}: ${t.checks_per_second} checks/s (${t.seconds} s)`);
  }
  if (result.lspmcp === null) console.log("lspmcp: not built (dist/lspmcp/main.js missing); skipped");
  else {
    for (const r of result.lspmcp.latency) {
      console.log(
        `through lspmcp ${r.file}: bare maude p50 ${r.bare_p50_ms} ms, diagnostics tool p50 ${r.lspmcp_p50_ms} ms, ratio ${r.ratio} (${r.runs} runs)`,
      );
    }
    const t = result.lspmcp.throughput;
    console.log(`through lspmcp, 20-file workspace, default concurrency: ${t.checks_per_second} checks/s (${t.seconds} s)`);
  }
}
