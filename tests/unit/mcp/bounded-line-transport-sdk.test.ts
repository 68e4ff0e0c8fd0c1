import { PassThrough } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "vitest";
import { BoundedLineTransport } from "../../../src/mcp/bounded-line-transport.js";

// The transport under the SDK's own server: a bad line in the middle of a session is answered and
// the session keeps serving requests, which the stock transport would not (it closes at 10 MiB).
test("an SDK server keeps serving after an oversized and a garbage line", async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new McpServer({ name: "t", version: "0.0.0" });
  server.registerTool("echo", { description: "echo" }, () => ({ content: [{ type: "text", text: "ok" }] }));
  await server.connect(new BoundedLineTransport(input, output));

  const lines: { id?: unknown; result?: unknown; error?: { code: number } }[] = [];
  let pending = "";
  const waiters: (() => void)[] = [];
  output.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const parts = pending.split("\n");
    pending = parts.pop()!;
    for (const p of parts) lines.push(JSON.parse(p));
    waiters.splice(0).forEach((w) => w());
  });
  const until = async (n: number): Promise<void> => {
    while (lines.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  const send = (message: unknown): boolean => input.write(JSON.stringify(message) + "\n");

  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "c", version: "0" } },
  });
  await until(1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  input.write(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"pad":"${"x".repeat(4 * 1024 * 1024)}"}}\n`);
  input.write("}{ not json\n");
  send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
  await until(4);

  expect(lines[0]).toMatchObject({ id: 1, result: { serverInfo: { name: "t" } } });
  expect(lines[1]).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: message exceeds 4194304 bytes" } });
  expect(lines[2]).toMatchObject({ id: null, error: { code: -32700 } });
  expect(lines[3]).toMatchObject({ id: 3, result: { tools: [{ name: "echo" }] } });
  await server.close();
});
