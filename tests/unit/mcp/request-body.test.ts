import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "vitest";
import { readJsonBody } from "../../../src/mcp/http/request-body.js";

/** An IncomingMessage-like stream of `chunks` with the given headers. */
function body(chunks: (string | Buffer)[], headers: Record<string, string> = {}): IncomingMessage {
  return Object.assign(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), { headers }) as unknown as IncomingMessage;
}

describe("readJsonBody", () => {
  test("parses a body that arrives in pieces, split inside a UTF-8 sequence", async () => {
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { word: "é😀" } });
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from("😀")) + 2;
    expect(await readJsonBody(body([bytes.subarray(0, split), bytes.subarray(split)]))).toEqual({ kind: "json", value: JSON.parse(text) });
  });

  test("refuses a declared Content-Length over the bound without reading", async () => {
    let read = false;
    const stream = body([]);
    stream.on("data", () => (read = true));
    stream.headers["content-length"] = "101";
    expect(await readJsonBody(stream, 100)).toEqual({ kind: "too-large" });
    expect(read).toBe(false);
  });

  test("stops as soon as more than the bound has arrived, whatever was declared", async () => {
    expect(await readJsonBody(body(["[1,", "2,3", "]".padEnd(200, " ")]), 100)).toEqual({ kind: "too-large" });
    expect(await readJsonBody(body(["x".repeat(100)]), 100)).toEqual({ kind: "not-json" });
  });

  test("a body that is not JSON, or empty, is not-json", async () => {
    expect(await readJsonBody(body(["{oops"]))).toEqual({ kind: "not-json" });
    expect(await readJsonBody(body([]))).toEqual({ kind: "not-json" });
    expect(await readJsonBody(body([Buffer.from([0xff, 0xfe])]))).toEqual({ kind: "not-json" });
  });
});
