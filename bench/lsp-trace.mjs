#!/usr/bin/env node
// A timeline of LSP messages, for profiling: put this in front of a server's command
// (`command = "node"`, `args = ["bench/lsp-trace.mjs", REAL_SERVER, ...ARGS]`) and set
// `env = { LSP_TRACE = "/tmp/trace.jsonl" }`. It forwards stdio both ways unchanged and appends
// one JSON line per message: time (ms since start), direction, method or response id, bytes.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [command, ...args] = process.argv.slice(2);
const out = process.env.LSP_TRACE;
const start = performance.now();
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const lines = [];
const flush = () => {
  if (lines.length > 0 && out) appendFileSync(out, lines.splice(0).join(""));
};
setInterval(flush, 200).unref();

function tap(direction) {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString("latin1"))?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
      buffer = buffer.subarray(headerEnd + 4 + length);
      const message = JSON.parse(body);
      const inner = message.method === "workspace/executeCommand" ? message.params?.arguments?.[0] : undefined;
      lines.push(
        JSON.stringify({
          t: Math.round((performance.now() - start) * 10) / 10,
          dir: direction,
          method: message.method ?? null,
          id: message.id ?? null,
          ...(inner ? { command: inner } : {}),
          ...(message.params?.textDocument?.uri ? { uri: message.params.textDocument.uri.split("/").pop() } : {}),
          ...(message.params?.uri ? { uri: message.params.uri.split("/").pop() } : {}),
          ...(message.params?.token !== undefined ? { token: message.params.token, kind: message.params.value?.kind } : {}),
          bytes: length,
        }) + "\n",
      );
    }
  };
}

process.stdin.on("data", tap("in"));
process.stdin.pipe(child.stdin);
child.stdout.on("data", tap("out"));
child.stdout.pipe(process.stdout);
child.on("exit", (code, signal) => {
  flush();
  process.exit(code ?? (signal ? 1 : 0));
});
