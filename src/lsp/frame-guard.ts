import { Transform, type TransformCallback } from "node:stream";

/** The largest LSP message the bridge accepts from a server: results are bounded far below this. */
const MAX_SERVER_MESSAGE_BYTES = 32 * 1024 * 1024;

/** A header block longer than this is not LSP framing. */
const MAX_HEADER_BYTES = 8 * 1024;

/** How much of an oversized body is read to find whose answer it is. */
const ID_SCAN_BYTES = 4 * 1024;

/**
 * The JSON-RPC error code (implementation-defined server-error range) of the answer the guard
 * puts in place of an oversized response: the request fails, the session goes on.
 */
export const OVERSIZED_RESPONSE_CODE = -32099;

const HEADER_LINE = /^[A-Za-z0-9-]+:[ \t]*[^\r\n]*$/;

/**
 * Checks the server's `Content-Length` framing as the bytes stream in, before vscode-jsonrpc
 * buffers anything. vscode-jsonrpc waits forever for a header that never completes (a stray
 * `hello\n` on stdout) and buffers any message whole, so a 100 MB answer costs the bridge most of
 * a gigabyte. What it promises: bytes of well-framed messages up to `maxMessageBytes` pass
 * unchanged. A response over the bound whose `id` shows in its first 4 KiB (servers write
 * `{"jsonrpc","id","result"}`) is dropped as it streams in and replaced by an error answer for
 * that id with code `OVERSIZED_RESPONSE_CODE`, so only that request fails. At the first header
 * line that is not `Name: value`, a header block without a numeric Content-Length, or any other
 * message over the bound, `onViolation` is called once with a reason for people, and nothing
 * more passes (the stream ends).
 */
export class FrameGuard extends Transform {
  private header: Buffer[] = [];
  private headerLength = 0;
  private lineStart = 0;
  private bodyRemaining = 0;
  private contentLength: number | null = null;
  private violated = false;
  // An oversized body being dropped: its length, and its first bytes until the id is known.
  private oversized: { length: number; prefix: Buffer[]; prefixLength: number; decided: boolean } | null = null;
  // What passes from the current chunk, pushed once at its end: each push is a `data` event that
  // vscode-jsonrpc's reader buffers and parses for, and a message came as 3 or 4 pieces.
  private passing: Buffer[] = [];

  constructor(
    private readonly onViolation: (reason: string) => void,
    private readonly maxMessageBytes = MAX_SERVER_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let offset = 0;
    while (offset < chunk.length && !this.violated) {
      if (this.bodyRemaining > 0) {
        const take = Math.min(this.bodyRemaining, chunk.length - offset);
        if (this.oversized) this.dropBody(chunk.subarray(offset, offset + take));
        else this.passing.push(chunk.subarray(offset, offset + take));
        this.bodyRemaining -= take;
        offset += take;
        continue;
      }
      const newline = chunk.indexOf(0x0a, offset);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.header.push(chunk.subarray(offset, end));
      this.headerLength += end - offset;
      offset = end;
      if (this.headerLength > MAX_HEADER_BYTES) return this.fail(`the server wrote more than ${MAX_HEADER_BYTES} bytes without an LSP header`, done);
      if (newline !== -1 && this.endLine()) continue;
    }
    this.flush();
    done();
  }

  private flush(): void {
    if (this.passing.length === 0) return;
    this.push(this.passing.length === 1 ? this.passing[0] : Buffer.concat(this.passing));
    this.passing = [];
  }

  // Handles one complete header line; true when the stream may go on.
  private endLine(): boolean {
    const block = Buffer.concat(this.header, this.headerLength);
    const line = block
      .subarray(this.lineStart)
      .toString("latin1")
      .replace(/\r?\n$/, "");
    this.lineStart = block.length;
    if (line === "") {
      if (this.contentLength === null) return this.failLater("the server sent an LSP header without Content-Length");
      if (this.contentLength > this.maxMessageBytes) this.oversized = { length: this.contentLength, prefix: [], prefixLength: 0, decided: false };
      else this.passing.push(block);
      this.bodyRemaining = this.contentLength;
      this.header = [];
      this.headerLength = 0;
      this.lineStart = 0;
      this.contentLength = null;
      return true;
    }
    if (!HEADER_LINE.test(line)) return this.failLater(`the server wrote bytes that are not LSP framing: ${JSON.stringify(line.slice(0, 80))}`);
    const [name, value] = [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()];
    if (name === "content-length") {
      if (!/^\d+$/.test(value)) return this.failLater(`the server sent Content-Length ${JSON.stringify(value)}`);
      this.contentLength = Number(value);
    }
    return true;
  }

  // Drops a piece of an oversized body; from its first bytes, answers its request or gives up.
  private dropBody(piece: Buffer): void {
    const state = this.oversized!;
    if (!state.decided) {
      state.prefix.push(piece.subarray(0, ID_SCAN_BYTES - state.prefixLength));
      state.prefixLength = Math.min(ID_SCAN_BYTES, state.prefixLength + piece.length);
      const found = responseId(Buffer.concat(state.prefix).toString("utf8"));
      const tooLong = `the server sent a message of ${state.length} bytes, over the bound of ${this.maxMessageBytes} bytes`;
      if (found === "not-a-response" || (found === "unknown" && (state.prefixLength >= ID_SCAN_BYTES || state.prefixLength >= state.length))) {
        this.failLater(tooLong);
        return;
      }
      if (found !== "unknown") {
        state.decided = true;
        const body = Buffer.from(
          JSON.stringify({ jsonrpc: "2.0", id: found.id, error: { code: OVERSIZED_RESPONSE_CODE, message: tooLong, data: { message_bytes: state.length } } }),
        );
        this.passing.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body);
      }
    }
    if (this.bodyRemaining - piece.length === 0) this.oversized = null;
  }

  private failLater(reason: string): false {
    this.violate(reason);
    return false;
  }

  private fail(reason: string, done: TransformCallback): void {
    this.violate(reason);
    done();
  }

  private violate(reason: string): void {
    if (this.violated) return;
    this.violated = true;
    // Whole messages before the violation still pass; a partial one cannot be parsed anyway.
    this.flush();
    this.header = [];
    this.headerLength = 0;
    this.onViolation(reason);
    this.push(null);
  }
}

/**
 * Reads the start of a JSON-RPC body: the response's id once a top-level `result` or `error` key
 * follows it, "not-a-response" at a top-level `method`, else "unknown" (more bytes are needed).
 */
export function responseId(prefix: string): { id: number | string } | "not-a-response" | "unknown" {
  let depth = 0;
  let id: number | string | undefined;
  let at = 0;
  while (at < prefix.length) {
    const char = prefix[at]!;
    if (char === '"') {
      const end = stringEnd(prefix, at);
      if (end < 0) return "unknown";
      const text = prefix.slice(at, end + 1);
      at = end + 1;
      while (prefix[at] === " " || prefix[at] === "\n" || prefix[at] === "\r" || prefix[at] === "\t") at++;
      if (depth !== 1 || prefix[at] !== ":") continue;
      const key = JSON.parse(text) as string;
      if (key === "method") return "not-a-response";
      if ((key === "result" || key === "error") && id !== undefined) return { id };
      if (key === "id") {
        const value = /^:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(prefix.slice(at));
        if (!value) return "unknown";
        id = JSON.parse(value[1]!) as number | string;
      }
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    at++;
  }
  return "unknown";
}

// Index of the closing quote of the JSON string opening at `start`, or -1 when it is cut off.
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === '"') return at;
  }
  return -1;
}
