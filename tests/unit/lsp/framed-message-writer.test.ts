import { PassThrough, Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { FramedMessageWriter } from "../../../src/lsp/framed-message-writer.js";

describe("FramedMessageWriter", () => {
  test("each message is one write: the Content-Length frame (in bytes) and its body together", async () => {
    const chunks: Buffer[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const writer = new FramedMessageWriter(output);
    const message = { jsonrpc: "2.0", method: "textDocument/didOpen", params: { text: "é😀" } };
    await writer.write(message);
    await writer.write({ jsonrpc: "2.0", id: 1, method: "shutdown" });
    expect(chunks).toHaveLength(2);
    const body = JSON.stringify(message);
    expect(chunks[0]!.toString("utf8")).toBe(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
  });

  test("a write to a closed pipe rejects and is reported on onError", async () => {
    const output = new PassThrough();
    const writer = new FramedMessageWriter(output);
    const errors: Error[] = [];
    writer.onError(([error]) => errors.push(error));
    output.destroy();
    await expect(writer.write({ jsonrpc: "2.0", method: "exit" })).rejects.toThrow();
    expect(errors.length).toBeGreaterThan(0);
  });
});
