import { describe, expect, test } from "vitest";
import { FrameGuard, responseId } from "../../../src/lsp/frame-guard.js";

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** Feeds `chunks` through a guard; returns what passed and the violations reported. */
async function run(chunks: (string | Buffer)[], max?: number): Promise<{ out: string; violations: string[] }> {
  const violations: string[] = [];
  const guard = new FrameGuard((reason) => violations.push(reason), max);
  const parts: Buffer[] = [];
  guard.on("data", (chunk: Buffer) => parts.push(chunk));
  const ended = new Promise((resolve) => guard.on("end", resolve));
  for (const chunk of chunks) guard.write(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  guard.end();
  await ended;
  return { out: Buffer.concat(parts).toString(), violations };
}

describe("FrameGuard", () => {
  test("well-framed messages pass unchanged, however the bytes are split", async () => {
    const stream = frame('{"a":"é"}') + `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n` + frame("{}");
    for (const size of [1, 2, 7, stream.length]) {
      const bytes = Buffer.from(stream);
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(await run(chunks)).toEqual({ out: stream, violations: [] });
    }
  });

  test("a stray line on stdout is a violation at once, and nothing after it passes", async () => {
    const { out, violations } = await run([frame("{}"), "hello\n", frame("{}")]);
    expect(out).toBe(frame("{}"));
    expect(violations).toEqual([expect.stringMatching(/not LSP framing: "hello"/)]);
  });

  test("a header without Content-Length, or with a non-numeric one, is a violation", async () => {
    expect((await run(["X-Other: 1\r\n\r\n{}"])).violations).toEqual([expect.stringMatching(/without Content-Length/)]);
    expect((await run(["Content-Length: 1e3\r\n\r\n{}"])).violations).toEqual([expect.stringMatching(/Content-Length "1e3"/)]);
  });

  test("a message over the bound is refused before its body is read", async () => {
    const { out, violations } = await run([`Content-Length: 101\r\n\r\n`, "x".repeat(101)], 100);
    expect(out).toBe("");
    expect(violations).toEqual(["the server sent a message of 101 bytes, over the bound of 100 bytes"]);
  });

  test("a header that never ends is refused after 8 KiB", async () => {
    expect((await run(["x".repeat(9000)])).violations).toEqual([expect.stringMatching(/without an LSP header/)]);
  });
});

describe("FrameGuard: oversized responses", () => {
  test("an oversized response is replaced by an error answer for its id, and the stream goes on", async () => {
    const big = `{"jsonrpc":"2.0","id":42,"result":"${"x".repeat(500)}"}`;
    const { out, violations } = await run([`Content-Length: ${big.length}\r\n\r\n`, big.slice(0, 10), big.slice(10), frame("{}")], 100);
    expect(violations).toEqual([]);
    const replaced = out.slice(out.indexOf("\r\n\r\n") + 4, out.lastIndexOf("Content-Length"));
    expect(JSON.parse(replaced)).toMatchObject({ id: 42, error: { code: -32099, data: { message_bytes: big.length } } });
    expect(out.endsWith(frame("{}"))).toBe(true);
  });

  test("an oversized notification or request cannot be answered: a violation", async () => {
    const big = `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":"${"x".repeat(500)}"}`;
    expect((await run([`Content-Length: ${big.length}\r\n\r\n${big}`], 100)).violations).toEqual([expect.stringMatching(/over the bound/)]);
  });

  test("responseId reads the id of a response and only of a response", () => {
    expect(responseId('{"jsonrpc":"2.0","id":7,"result":')).toEqual({ id: 7 });
    expect(responseId('{"id":"a\\"b", "error":{')).toEqual({ id: 'a"b' });
    expect(responseId('{"jsonrpc":"2.0","id":7,"method":"x"')).toBe("not-a-response");
    expect(responseId('{"result":{"id":3},"id":')).toBe("unknown");
    expect(responseId('{"jsonrpc":"2.0","id":7')).toBe("unknown");
  });
});
