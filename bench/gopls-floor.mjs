#!/usr/bin/env node
// The floor of a whole-module check with gopls: a plain LSP client, no bridge, speaking JSON-RPC
// over stdio to the same pinned gopls with lspmcp's capabilities and the gopls profile's
// initialization options and environment, doing what a fast correct client does: open a batch of
// files (every file at once, or `batch` at a time), send one request after the last open and
// wait for its answer (gopls takes its messages in order, so by then the diagnosis of the last
// change has begun), then for the end of all work-done progress, by which every publish of that
// diagnosis is out; keep each file's last set, close the batch, next batch.
// Usage: node bench/gopls-floor.mjs ROOT [--batch N]: the files of `git ls-files '*.go' go.mod`;
// prints {files, severities, notChecked} as JSON. bench/gopls.mjs times it beside `lspmcp check`.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { CLIENT_CAPABILITIES } from "../dist/src/lsp/client-capabilities.js";
import { toolCacheDir } from "../dist/src/config/tool-cache.js";

/** The gopls profile's own environment (servers/gopls.toml `env`). */
export const GOPLS_ENV = { GOPROXY: "off", GOTOOLCHAIN: "local" };

/**
 * Opens `files` (paths relative to `root`) in `gopls`, `batch` at a time, and returns each file's
 * last published diagnostics (null: none), keyed by relative path.
 */
export async function goplsFloor({ gopls, root, files, batch = files.length }) {
  const child = spawn(gopls, [], { cwd: root, stdio: ["pipe", "pipe", "ignore"], env: { ...process.env, ...GOPLS_ENV } });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const running = new Set();
  const published = new Map();
  let idle = () => {};
  connection.onRequest(() => null);
  connection.onRequest("workspace/configuration", (params) => params.items.map(() => null));
  connection.onNotification("$/progress", ({ token, value }) => {
    if (value.kind === "begin") running.add(token);
    if (value.kind === "end") running.delete(token);
    if (running.size === 0) idle();
  });
  connection.onNotification("textDocument/publishDiagnostics", ({ uri, diagnostics }) => published.set(uri, diagnostics));
  connection.listen();
  const rootUri = pathToFileURL(root).href;
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: "floor" }],
    capabilities: CLIENT_CAPABILITIES,
    initializationOptions: { verboseWorkDoneProgress: true, diagnosticsDelay: "0s" },
  });
  await connection.sendNotification("initialized", {});
  const findings = new Map();
  for (let start = 0; start < files.length; start += batch) {
    const chunk = files.slice(start, start + batch).map((file) => ({ file, uri: pathToFileURL(join(root, file)).href }));
    for (const { file, uri } of chunk) {
      published.delete(uri);
      const languageId = file.endsWith("go.mod") ? "go.mod" : "go";
      connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text: readFileSync(join(root, file), "utf8") } });
    }
    // Any answer (MethodNotFound) is the barrier.
    await connection.sendRequest("$/floor/barrier").catch(() => {});
    if (running.size > 0) await new Promise((done) => (idle = done));
    for (const { file, uri } of chunk) findings.set(file, published.get(uri) ?? null);
    if (start + batch < files.length) for (const { uri } of chunk) connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }
  const exited = new Promise((done) => child.once("exit", done));
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  await exited;
  connection.dispose();
  return findings;
}

/** Findings per LSP severity (1 error … 4 hint), and the files gopls says no package includes. */
export function summarize(findings) {
  const severities = { 1: 0, 2: 0, 3: 0, 4: 0 };
  let notChecked = 0;
  for (const diagnostics of findings.values()) {
    for (const d of diagnostics ?? []) {
      if (d.source === "go list" && d.message.startsWith("No packages found for open file")) notChecked++;
      else severities[d.severity ?? 1]++;
    }
  }
  return { files: findings.size, severities, notChecked };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root] = process.argv.slice(2);
  const at = process.argv.indexOf("--batch");
  const files = execFileSync("git", ["ls-files", "*.go", "go.mod"], { cwd: root, encoding: "utf8" }).trim().split("\n");
  const batch = at > 0 ? Number(process.argv[at + 1]) : files.length;
  const findings = await goplsFloor({ gopls: join(toolCacheDir(), "go", "bin", "gopls"), root, files, batch });
  console.log(JSON.stringify(summarize(findings)));
}
