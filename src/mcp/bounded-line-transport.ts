import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isJsonRpcMessage } from "./json-rpc-shape.js";
import type { MessageChannel } from "./message-channel.js";
import { errorText } from "../contract/errors.js";

/** The inbound line bound of CONTRACT §1: 4 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Options of `BoundedLineTransport`. */
interface BoundedLineTransportOptions {
  /** Longest accepted line in bytes, terminator excluded. Default `DEFAULT_MAX_LINE_BYTES`. */
  maxLineBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The bridge's MCP line transport: newline-delimited JSON-RPC over a pair of streams (stdio of
 * `serve`, and each peer's socket at the shared server), like the SDK's `StdioServerTransport`,
 * but a bad line never ends the session (CONTRACT §1). What it promises:
 * - A line longer than `maxLineBytes` is discarded while it streams in (at most the bound plus
 *   one chunk is held), answered with `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,...}}`,
 *   and reading goes on with the next line.
 * - A line that is not UTF-8 JSON is answered -32700; JSON that is not a JSON-RPC message is
 *   answered -32600, with the message's id when it is a request that has one, else id null
 *   (a malformed *response* carries an id from the other side's id space, so it is not echoed).
 *   Each such problem is also reported to `onerror`; none closes the transport.
 * - `\r\n` and `\n` both end a line; blank lines are skipped; a chunk may hold many messages or
 *   a part of one, split anywhere, including inside a UTF-8 sequence. An unterminated last line
 *   at end of input is dropped, as the stock transport does.
 * - `onclose` fires exactly once: at end of input, or on `close()`. `send` resolves once the
 *   output has accepted the data, waiting for `drain` when the output is full.
 */
export class BoundedLineTransport implements MessageChannel {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });
  #parts: Buffer[] = [];
  #length = 0;
  #discarding = false;
  #started = false;
  #closed = false;

  constructor(input: Readable = process.stdin, output: Writable = process.stdout, options?: BoundedLineTransportOptions) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = options?.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Starts reading the input. Throws when called twice (the SDK's `connect()` calls it). */
  async start(): Promise<void> {
    if (this.#started) throw new Error("BoundedLineTransport already started");
    this.#started = true;
    this.#input.on("data", this.#onData);
    this.#input.on("error", this.#onError);
    this.#input.on("end", this.#onEnd);
  }

  /** Writes one message as a JSON line; resolves when written, rejects when the output fails. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(JSON.stringify(message) + "\n");
  }

  /**
   * Writes one message already serialised as JSON (one line, no terminator), as {@link send}
   * would: a forwarder passes on another process's text without parsing and re-serialising it.
   */
  sendSerialized(json: string): Promise<void> {
    return this.#write(json + "\n");
  }

  /** Stops reading (the input is paused when nobody else reads it) and fires `onclose`. */
  async close(): Promise<void> {
    this.#detach();
    if (this.#input.listenerCount("data") === 0) this.#input.pause();
    this.#finish();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let from = 0;
    while (!this.#closed) {
      const newline = bytes.indexOf(LF, from);
      this.#take(bytes.subarray(from, newline === -1 ? bytes.length : newline));
      if (newline === -1) return;
      this.#endLine();
      from = newline + 1;
    }
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onEnd = (): void => {
    this.#detach();
    this.#finish();
  };

  // Buffers part of the current line, or drops it once the line is known to be too long. One
  // byte of slack is kept for a "\r" that may turn out to be the terminator.
  #take(segment: Buffer): void {
    if (this.#discarding || segment.length === 0) return;
    if (this.#length + segment.length > this.#maxLineBytes + 1) {
      this.#discarding = true;
      this.#parts = [];
      this.#length = 0;
      return;
    }
    // A copy, so a retained slice never pins the whole (possibly huge) chunk in memory.
    this.#parts.push(Buffer.from(segment));
    this.#length += segment.length;
  }

  #endLine(): void {
    const tooLong = this.#discarding;
    let line = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length);
    this.#parts = [];
    this.#length = 0;
    this.#discarding = false;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (tooLong || line.length > this.#maxLineBytes) {
      this.#reject(-32700, `Parse error: message exceeds ${this.#maxLineBytes} bytes`, null);
      return;
    }
    this.#handleLine(line);
  }

  #handleLine(line: Buffer): void {
    let value: unknown;
    try {
      const text = this.#decoder.decode(line);
      if (text.trim() === "") return;
      value = JSON.parse(text);
    } catch (error) {
      this.#reject(-32700, `Parse error: ${errorText(error)}`, null);
      return;
    }
    if (!isJsonRpcMessage(value)) {
      this.#reject(-32600, "Invalid Request: not a JSON-RPC 2.0 message", requestId(value));
      return;
    }
    this.onmessage?.(value);
  }

  // Answers a bad line. The id may be null, which the SDK's message type does not allow, so the
  // line is written directly rather than through `send`.
  #reject(code: number, message: string, id: string | number | null): void {
    this.onerror?.(new Error(message));
    const line = JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n";
    this.#write(line).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  #write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const output = this.#output;
      if (output.destroyed || output.writableEnded) {
        reject(new Error("output stream is closed"));
        return;
      }
      // Waits for drain, but also gives up when the output errors or closes first.
      const settle = (error?: Error): void => {
        output.off("drain", onDrain);
        output.off("error", onFail);
        output.off("close", onClose);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = (): void => settle();
      const onFail = (error: Error): void => settle(error);
      const onClose = (): void => settle(new Error("output stream closed before the message was written"));
      if (output.write(line)) {
        resolve();
        return;
      }
      output.on("drain", onDrain);
      output.on("error", onFail);
      output.on("close", onClose);
    });
  }

  #detach(): void {
    this.#input.off("data", this.#onData);
    this.#input.off("error", this.#onError);
    this.#input.off("end", this.#onEnd);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#parts = [];
    this.#length = 0;
    this.onclose?.();
  }
}

// JSON-RPC: answer with the request's id when it can be told, else null.
function requestId(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("method" in value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}
