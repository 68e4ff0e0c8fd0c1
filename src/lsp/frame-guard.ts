import { Transform, type TransformCallback } from "node:stream";

/** The largest LSP message the bridge accepts from a server: results are bounded far below this. */
export const MAX_SERVER_MESSAGE_BYTES = 32 * 1024 * 1024;

/** A header block longer than this is not LSP framing. */
const MAX_HEADER_BYTES = 8 * 1024;

const HEADER_LINE = /^[A-Za-z0-9-]+:[ \t]*[^\r\n]*$/;

/**
 * Checks the server's `Content-Length` framing as the bytes stream in, before vscode-jsonrpc
 * buffers anything. vscode-jsonrpc waits forever for a header that never completes (a stray
 * `hello\n` on stdout) and buffers any message whole, so a 100 MB answer costs the bridge most of
 * a gigabyte. What it promises: bytes of well-framed messages up to `maxMessageBytes` pass
 * unchanged; at the first header line that is not `Name: value`, a header block without a
 * numeric Content-Length, or a message over the bound, `onViolation` is called once with a
 * reason for people, and nothing more passes (the stream ends).
 */
export class FrameGuard extends Transform {
  private header: Buffer[] = [];
  private headerLength = 0;
  private lineStart = 0;
  private bodyRemaining = 0;
  private contentLength: number | null = null;
  private violated = false;

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
        this.push(chunk.subarray(offset, offset + take));
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
    done();
  }

  // Handles one complete header line; true when the stream may go on.
  private endLine(): boolean {
    const block = Buffer.concat(this.header, this.headerLength);
    const line = block.subarray(this.lineStart).toString("latin1").replace(/\r?\n$/, "");
    this.lineStart = block.length;
    if (line === "") {
      if (this.contentLength === null) return this.failLater("the server sent an LSP header without Content-Length");
      this.push(block);
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
      const length = Number(value);
      if (length > this.maxMessageBytes) {
        return this.failLater(`the server sent a message of ${length} bytes, over the bound of ${this.maxMessageBytes} bytes`);
      }
      this.contentLength = length;
    }
    return true;
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
    this.header = [];
    this.headerLength = 0;
    this.onViolation(reason);
    this.push(null);
  }
}
