// Bridge overhead benchmark (run after `npm run build`), each figure against a baseline taken in
// the same run:
//  1. hover and document symbols through lspmcp (the SDK's MCP client over stdio) vs a direct
//     vscode-jsonrpc client of the same pinned server on the same file: p50 of each, the ratio and
//     the milliseconds added;
//  2. the bridge process's own RSS with 4 ready sessions (servers excluded);
//  3. definition, references, and references on a symbol used 500 times, through lspmcp vs a
//     direct vscode-jsonrpc client of typescript-language-server on the navigation fixture, both
//     waited until the project is loaded: p50, ratio, milliseconds added, and the bridge's own
//     CPU per call (user + sys from /proc), which a loaded machine disturbs less than wall time.
// Usage: node bench/bridge.mjs [--runs N]
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { positionOf, startDirectClient } from "./direct-lsp.mjs";
import { stat } from "./proc.mjs";
import { lspmcpTransport } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) > 0 ? Number(args[args.indexOf("--runs") + 1]) : 200;
// A private copy of the fixture, with a shell script so that the bash session has a file.
const WORKSPACE = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-ws-")), "poly");
cpSync(join(REPO, "tests/fixtures/workspaces/poly"), WORKSPACE, { recursive: true });
writeFileSync(join(WORKSPACE, "run.sh"), "#!/bin/sh\nmain() { echo hi; }\nmain\n");
const SERVERS = {
  clangd: { command: "/usr/bin/clangd", args: ["--background-index=false"], file: "src/matrix.c", languageId: "c", needle: "cells(&m)" },
  typescript: {
    command: join(REPO, "node_modules/.bin/typescript-language-server"),
    args: ["--stdio"],
    file: "src/shapes.ts",
    languageId: "typescript",
    needle: "area();",
  },
};

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function time(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return p50(samples);
}

async function direct(server) {
  const { connection, stop } = await startDirectClient({
    command: server.command,
    args: server.args,
    root: WORKSPACE,
    name: "poly",
    capabilities: { textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true }, hover: { contentFormat: ["markdown"] } } },
  });
  const path = join(WORKSPACE, server.file);
  const text = readFileSync(path, "utf8");
  const uri = pathToFileURL(path).href;
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: server.languageId, version: 1, text } });
  const at = positionOf(text, server.needle);
  const position = { line: at.line - 1, character: at.character };
  // Warm up until the server answers hover with content (it has parsed the file).
  for (let i = 0; i < 200 && !(await connection.sendRequest("textDocument/hover", { textDocument: { uri }, position })); i++);
  const hover = await time(RUNS, () => connection.sendRequest("textDocument/hover", { textDocument: { uri }, position }));
  const symbols = await time(RUNS, () => connection.sendRequest("textDocument/documentSymbol", { textDocument: { uri } }));
  await stop();
  return { hover, symbols };
}

function bridgeConfig() {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-bench-"));
  const path = join(dir, "bridge.toml");
  writeFileSync(
    path,
    `[bridge]\nmax_sessions = 4\n` +
      ["typescript", "pyright", "clangd", "bash"].map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`).join("") +
      `[[workspace]]\nname = "poly"\nroot = ${JSON.stringify(WORKSPACE)}\nservers = ["typescript", "pyright", "clangd", "bash"]\n`,
  );
  return path;
}

async function startBridge(config = bridgeConfig()) {
  const transport = lspmcpTransport(["serve", "--standalone", "--config", config]);
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

async function throughBridge(client, name, server) {
  const text = readFileSync(join(WORKSPACE, server.file), "utf8");
  const at = positionOf(text, server.needle);
  const hoverArgs = { server: name, path: server.file, line: at.line, column: at.column };
  for (let i = 0; i < 200; i++) {
    const result = await client.callTool({ name: "hover", arguments: hoverArgs });
    if (!result.isError && result.structuredContent.contents) break;
  }
  const hover = await time(RUNS, () => client.callTool({ name: "hover", arguments: hoverArgs }));
  const symbols = await time(RUNS, () => client.callTool({ name: "document_symbols", arguments: { server: name, path: server.file } }));
  return { hover, symbols };
}

function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

const bridge = await startBridge();
const rows = [];
for (const [name, server] of Object.entries(SERVERS)) {
  const base = await direct(server);
  const via = await throughBridge(bridge.client, name, server);
  for (const op of ["hover", "symbols"]) {
    rows.push({ server: name, op, direct: base[op], bridge: via[op] });
  }
}
// Bring the other two sessions up so that four are ready, then measure the bridge alone.
await bridge.client.callTool({ name: "document_symbols", arguments: { server: "pyright", path: "src/inventory.py" } });
await bridge.client.callTool({ name: "document_symbols", arguments: { server: "bash", path: "run.sh" } });
const { structuredContent } = await bridge.client.callTool({ name: "session_status", arguments: {} });
const ready = structuredContent.sessions.filter((session) => session.state === "ready").length;
const rss = rssMiB(bridge.pid);
await bridge.client.close();

// 3. The read class on typescript-language-server: a private copy of the navigation fixture with a
// constant used 500 times.
const NAV = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-nav-")), "nav");
cpSync(join(REPO, "tests/fixtures/workspaces/nav"), NAV, { recursive: true });
writeFileSync(join(NAV, "ts/many.ts"), `export const unit = 1;\n${Array.from({ length: 500 }, (_, i) => `export const use${i} = unit + ${i};`).join("\n")}\n`);
const NAV_CASES = [
  { op: "definition", file: "ts/report.ts", needle: "totalArea", after: "return ", method: "textDocument/definition", runs: RUNS },
  { op: "references", file: "ts/geometry.ts", needle: "totalArea", after: "", method: "textDocument/references", runs: RUNS },
  { op: "refs-500", file: "ts/many.ts", needle: "unit", after: "", method: "textDocument/references", runs: Math.max(10, Math.floor(RUNS / 4)) },
];
const navAt = (c) => positionOf(readFileSync(join(NAV, c.file), "utf8"), c.needle, c.after);

async function directNavigation() {
  const server = SERVERS.typescript;
  const { connection, stop } = await startDirectClient({
    command: server.command,
    args: server.args,
    root: NAV,
    name: "nav",
    capabilities: { textDocument: { definition: { linkSupport: true }, references: {} } },
  });
  const params = {};
  for (const c of NAV_CASES) {
    const path = join(NAV, c.file);
    const uri = pathToFileURL(path).href;
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "typescript", version: 1, text: readFileSync(path, "utf8") },
    });
    const at = navAt(c);
    params[c.op] = { textDocument: { uri }, position: { line: at.line - 1, character: at.character }, context: { includeDeclaration: true } };
  }
  // Until the project is loaded tsls answers from its syntax server (1 reference of 5): wait
  // for the full answer, as the bridge does, so both sides measure the same work.
  for (let i = 0; i < 2000 && (await connection.sendRequest("textDocument/references", params.references))?.length !== 5; i++);
  const out = {};
  for (const c of NAV_CASES) out[c.op] = await time(c.runs, () => connection.sendRequest(c.method, params[c.op]));
  await stop();
  return out;
}

async function bridgeNavigation() {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-bench-nav-config-"));
  const config = join(dir, "bridge.toml");
  // Large enough for all 501 references in one page.
  writeFileSync(
    config,
    `[bridge]\nmax_result_bytes = 1048576\nrequest_timeout_ms = 300000\n[[server]]\nname = "typescript"\nprofile = "typescript"\n[[workspace]]\nname = "nav"\nroot = ${JSON.stringify(NAV)}\nservers = ["typescript"]\n`,
  );
  const bridge = await startBridge(config);
  const out = {};
  for (const c of NAV_CASES) {
    const at = navAt(c);
    const args = { path: c.file, line: at.line, column: at.column, limit: 1000 };
    // The first call waits for the project to load, which on a loaded machine outlasts the SDK's 60 s default.
    const first = await bridge.client.callTool({ name: c.op === "definition" ? "definition" : "references", arguments: args }, undefined, { timeout: 600_000 });
    if (first.isError) throw new Error(`${c.op} failed: ${first.content[0].text}`);
    const cpuBefore = stat(bridge.pid).cpuMs;
    const p50ms = await time(c.runs, () => bridge.client.callTool({ name: c.op === "definition" ? "definition" : "references", arguments: args }));
    out[c.op] = { p50ms, cpuPerCall: (stat(bridge.pid).cpuMs - cpuBefore) / c.runs, items: first.structuredContent.total };
  }
  await bridge.client.close();
  return out;
}

const navDirect = await directNavigation();
const navBridge = await bridgeNavigation();

console.log(`bridge overhead vs a direct vscode-jsonrpc client (p50 of ${RUNS} calls each)`);
for (const row of rows) {
  const ratio = row.bridge / row.direct;
  const added = row.bridge - row.direct;
  console.log(
    `  ${row.server.padEnd(10)} ${row.op.padEnd(7)} direct ${row.direct.toFixed(2)} ms  bridge ${row.bridge.toFixed(2)} ms  ` +
      `ratio ${ratio.toFixed(2)}x  added ${added.toFixed(2)} ms`,
  );
}
console.log(`bridge RSS with ${ready} ready sessions: ${rss.toFixed(1)} MiB (target < 80 MiB; servers excluded)`);
console.log(`read class on typescript-language-server vs a direct vscode-jsonrpc client (p50; both after project load)`);
for (const c of NAV_CASES) {
  const direct = navDirect[c.op];
  const via = navBridge[c.op];
  console.log(
    `  ${c.op.padEnd(10)} ${String(via.items).padStart(3)} items  direct ${direct.toFixed(2)} ms  bridge ${via.p50ms.toFixed(2)} ms  ` +
      `ratio ${(via.p50ms / direct).toFixed(2)}x  added ${(via.p50ms - direct).toFixed(2)} ms  bridge CPU ${via.cpuPerCall.toFixed(2)} ms/call`,
  );
}
