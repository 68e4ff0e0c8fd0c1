import { PassThrough } from "node:stream";
import { describe, expect, test } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { BoundedLineTransport } from "../../../src/mcp/bounded-line-transport.js";

// A transport on in-memory streams, collecting what it delivers and what it writes back.
function harness(options?: { maxLineBytes?: number }) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new BoundedLineTransport(input, output, options);
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closed = 0;
  let written = "";
  output.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  transport.onclose = () => closed++;
  const replies = (): unknown[] =>
    written
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as unknown);
  return { input, output, transport, messages, errors, replies, closed: () => closed, raw: () => written };
}

const ping = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
// Lets stream events (data, end, drain) run.
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("BoundedLineTransport", () => {
  test("delivers a message", async () => {
    const h = harness();
    await h.transport.start();
    h.input.write(ping(1) + "\n");
    await tick();
    expect(h.messages).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(h.replies()).toEqual([]);
  });

  test("a 5 MB line is answered -32700 and the next message is delivered", async () => {
    const h = harness();
    await h.transport.start();
    const big = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping", params: { pad: "x".repeat(5_000_000) } });
    // Written in 64 KiB pieces, as a pipe would deliver it.
    for (let i = 0; i < big.length; i += 65536) h.input.write(big.slice(i, i + 65536));
    h.input.write("\n" + ping(2) + "\n");
    await tick();
    expect(h.replies()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: message exceeds 4194304 bytes" } }]);
    expect(h.messages).toEqual([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
    expect(h.closed()).toBe(0);
  });

  test("a line of exactly the bound is accepted, one byte more is not", async () => {
    const h = harness({ maxLineBytes: 64 });
    await h.transport.start();
    const base = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "p" });
    const exact = base.replace('"p"', `"${"p".repeat(64 - base.length + 1)}"`);
    expect(Buffer.byteLength(exact)).toBe(64);
    const over = exact.replace('"p', '"pp');
    h.input.write(exact + "\r\n" + over + "\r\n");
    await tick();
    expect(h.messages).toHaveLength(1);
    expect(h.replies()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: message exceeds 64 bytes" } }]);
  });

  test("a long line of many small chunks is dropped as a whole, once", async () => {
    const h = harness({ maxLineBytes: 1000 });
    await h.transport.start();
    for (let i = 0; i < 100; i++) h.input.write("y".repeat(999));
    h.input.write("\n" + ping(3) + "\n");
    await tick();
    expect(h.messages).toEqual([{ jsonrpc: "2.0", id: 3, method: "ping" }]);
    expect(h.replies()).toHaveLength(1);
  });

  test("garbage is -32700, JSON that is not JSON-RPC is -32600, and reading goes on", async () => {
    const h = harness();
    await h.transport.start();
    h.input.write("not json\n");
    h.input.write('{"id":5,"method":"x"}\n'); // no "jsonrpc": a request with an id
    h.input.write('{"jsonrpc":"2.0","id":6,"bogus":1}\n'); // not a request: its id is not echoed
    h.input.write("[1,2]\n");
    h.input.write("42\n");
    h.input.write(Buffer.from([0xff, 0xfe, 0x0a])); // invalid UTF-8
    h.input.write("\n   \r\n"); // blank lines are skipped silently
    h.input.write(ping(9) + "\n");
    await tick();
    const replies = h.replies() as { id: unknown; error: { code: number } }[];
    expect(replies.map((r) => [r.id, r.error.code])).toEqual([
      [null, -32700],
      [5, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32700],
    ]);
    expect(h.errors).toHaveLength(6);
    expect(h.messages).toEqual([{ jsonrpc: "2.0", id: 9, method: "ping" }]);
  });

  test("messages split anywhere across chunks, several per chunk, CRLF, multi-byte UTF-8", async () => {
    const h = harness();
    await h.transport.start();
    const text =
      [
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "a", params: { s: "h\u00e9llo \u{1F600} \u4e16" } }),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/b" }),
        JSON.stringify({ jsonrpc: "2.0", id: "r", result: { ok: true } }),
      ].join("\r\n") + "\n";
    const bytes = Buffer.from(text, "utf8");
    // Every byte on its own: every possible split point, including inside the emoji.
    for (const b of bytes) h.input.write(Buffer.from([b]));
    await tick();
    expect(h.messages).toEqual([
      { jsonrpc: "2.0", id: 1, method: "a", params: { s: "h\u00e9llo \u{1F600} \u4e16" } },
      { jsonrpc: "2.0", method: "notifications/b" },
      { jsonrpc: "2.0", id: "r", result: { ok: true } },
    ]);
    expect(h.replies()).toEqual([]);
    // And all three in one chunk.
    h.input.write(bytes);
    await tick();
    expect(h.messages).toHaveLength(6);
  });

  test("end of input fires onclose once and drops an unterminated last line", async () => {
    const h = harness();
    await h.transport.start();
    h.input.end(ping(1));
    await tick();
    expect(h.closed()).toBe(1);
    expect(h.messages).toEqual([]);
    await h.transport.close();
    expect(h.closed()).toBe(1);
  });

  test("close() stops reading and fires onclose once", async () => {
    const h = harness();
    await h.transport.start();
    h.input.write(ping(1) + "\n");
    await tick();
    await h.transport.close();
    h.input.write(ping(2) + "\n");
    await tick();
    expect(h.messages).toHaveLength(1);
    expect(h.closed()).toBe(1);
    expect(h.input.listenerCount("data")).toBe(0);
  });

  test("close() from inside onmessage stops before the rest of the chunk", async () => {
    const h = harness();
    h.transport.onmessage = (m) => {
      h.messages.push(m);
      void h.transport.close();
    };
    await h.transport.start();
    h.input.write(ping(1) + "\n" + ping(2) + "\n");
    await tick();
    expect(h.messages).toHaveLength(1);
  });

  test("start() twice throws", async () => {
    const h = harness();
    await h.transport.start();
    await expect(h.transport.start()).rejects.toThrow(/already started/);
  });

  test("send writes one JSON line and waits for drain when the output is full", async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 16 });
    const transport = new BoundedLineTransport(input, output);
    let done = false;
    const sent = transport.send({ jsonrpc: "2.0", id: 1, result: { pad: "z".repeat(100) } }).then(() => (done = true));
    await tick();
    expect(done).toBe(false); // nobody has read the output yet
    const line = (output.read() as Buffer).toString("utf8");
    await sent;
    expect(done).toBe(true);
    expect(line.endsWith("\n")).toBe(true);
    expect(JSON.parse(line)).toEqual({ jsonrpc: "2.0", id: 1, result: { pad: "z".repeat(100) } });
  });

  test("send rejects when the output is gone instead of hanging", async () => {
    const output = new PassThrough({ highWaterMark: 16 });
    const transport = new BoundedLineTransport(new PassThrough(), output);
    const sent = transport.send({ jsonrpc: "2.0", id: 1, result: { pad: "z".repeat(100) } });
    output.destroy();
    await expect(sent).rejects.toThrow();
    await expect(transport.send({ jsonrpc: "2.0", id: 2, result: {} })).rejects.toThrow(/closed/);
  });
});
