#!/usr/bin/env node
// The floor of a whole-project check with ty or pyrefly: a fresh process holding a plain LSP
// client, no bridge, speaking JSON-RPC over stdio to the same pinned server with the profile's
// arguments, doing what a fast correct client does: open every Python file, pull every file's
// diagnostics at once (a pull the server cancels is sent again), shut the server down. Run as its
// own process it pays for Node's start as `lspmcp check` does, and for nothing else: its framing
// is written here, with no module to load (vscode-jsonrpc's own files take longer to load than
// ty takes to check Flask).
// Usage: node bench/python-floor.mjs ty|pyrefly ROOT: the `.py` files under ROOT; prints
// {files, findings} as JSON. bench/startup.mjs times it beside the CLI and `lspmcp check`.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Each profile's command line (servers/ty.toml, servers/pyrefly.toml), in lspmcp's tool cache. */
const SERVERS = {
  ty: ["ty/bin/ty", ["server"]],
  pyrefly: ["pyrefly/bin/pyrefly", ["lsp", "--indexing-mode", "lazy-blocking"]],
};
const CAPABILITIES = {
  window: { workDoneProgress: true },
  workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
  textDocument: { diagnostic: { dynamicRegistration: true }, publishDiagnostics: { versionSupport: true } },
};
/** LSP's ServerCancelled, and the RequestCancelled pyrefly answers with while a change waits. */
const CANCELLED = new Set([-32802, -32800]);

const [name, root] = process.argv.slice(2);
if (!SERVERS[name] || !root) throw new Error("usage: node bench/python-floor.mjs ty|pyrefly ROOT");
const [binary, args] = SERVERS[name];
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "lspmcp");
const files = readdirSync(root, { recursive: true })
  .filter((path) => path.endsWith(".py"))
  .map((path) => join(root, path));

const child = spawn(join(cache, binary), args, { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
const exited = new Promise((done) => child.once("exit", done));
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }));
  child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
};
const waiting = new Map();
let nextId = 0;
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    send({ id, method, params });
  });
let buffer = Buffer.alloc(0);
child.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString("latin1"))[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
    buffer = buffer.subarray(end + 4 + length);
    if (message.method !== undefined && message.id !== undefined) {
      // The server's own requests: one (empty) setting per item asked for, else null.
      send({ id: message.id, result: message.method === "workspace/configuration" ? message.params.items.map(() => ({})) : null });
    } else if (message.method === undefined && waiting.has(message.id)) {
      const { resolve, reject } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) reject(message.error);
      else resolve(message.result);
    }
  }
});

const rootUri = pathToFileURL(root).href;
await request("initialize", { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "floor" }], capabilities: CAPABILITIES });
send({ method: "initialized", params: {} });
for (const file of files) {
  send({
    method: "textDocument/didOpen",
    params: { textDocument: { uri: pathToFileURL(file).href, languageId: "python", version: 1, text: readFileSync(file, "utf8") } },
  });
}
const pull = async (uri) => {
  for (;;) {
    try {
      return await request("textDocument/diagnostic", { textDocument: { uri } });
    } catch (error) {
      if (!CANCELLED.has(error?.code)) throw new Error(`${uri}: ${JSON.stringify(error)}`);
    }
  }
};
const reports = await Promise.all(files.map((file) => pull(pathToFileURL(file).href)));
await request("shutdown");
send({ method: "exit" });
child.stdin.end();
await exited;
console.log(JSON.stringify({ files: files.length, findings: reports.reduce((sum, report) => sum + (report?.items?.length ?? 0), 0) }));
