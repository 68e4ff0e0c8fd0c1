import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_MAX_LINE_BYTES } from "../mcp/bounded-line-transport.js";
import { isJsonRpcMessage } from "../mcp/json-rpc-shape.js";
import { MODERN_PROTOCOL_VERSIONS, PROTOCOL_VERSION_META_KEY } from "../mcp/revision-2026.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../mcp/server-identity.js";
import { HttpChannel } from "./http-channel.js";
import { isLoopbackHost } from "./listen-address.js";

/** Requests answered at once; more are refused (503, a JSON-RPC error) rather than queued without bound. */
const MAX_HTTP_IN_FLIGHT = 128;
/** Connections open at once; past it the server closes new ones at once (lspmcp's own bound, not the OS's). */
const MAX_HTTP_CONNECTIONS = 256;
/** A client has this long to send its request's headers; a slow-header connection is closed. */
const HEADERS_TIMEOUT_MS = 10_000;
/** ... and this long for the whole request, its body (at most the line bound) included. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** How often those two are enforced: Node's default, 30 s, would keep a slow client far past them. */
const TIMEOUT_CHECK_MS = 1000;
/** The MCP endpoint's path. */
const MCP_PATH = "/mcp";

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** JSON-RPC error of the revision for headers that disagree with the body. */
const HEADER_MISMATCH = -32020;
/** lspmcp's own code for a request refused because too many are in flight. */
const BUSY = -32001;

interface HttpFrontOptions {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  /** Names `Host` and `Origin` may give beyond this machine's loopback names (lower case). */
  readonly allowedHosts?: readonly string[];
}

/**
 * MCP's Streamable HTTP transport on node:http, stateless (no `Mcp-Session-Id`, no GET stream):
 * one POST to `/mcp` carries one JSON-RPC message; a request is answered with JSON, or as an
 * event stream when it asked for progress and the client takes one. Before anything runs, in
 * this order: `Host` and `Origin` are checked against DNS rebinding (403: each must be a loopback
 * name or one the user allowed), the bearer token (401), the method (405) and the body: at most
 * the stdio line bound, refused by its `Content-Length` before it is read, or as soon as it
 * streams past (413). A client that goes away before its answer cancels the request's work. The
 * server bounds what clients hold of it: the headers and the whole request have deadlines, and
 * the connections a cap.
 */
export class HttpFront {
  readonly channel: HttpChannel;
  readonly #server: Server;
  readonly #token: Buffer;
  readonly #allowed: ReadonlySet<string>;

  private constructor(options: HttpFrontOptions) {
    this.#token = Buffer.from(options.token);
    this.#allowed = new Set(options.allowedHosts ?? []);
    this.#server = createServer(
      { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
      (request, response) => this.#handle(request, response),
    );
    this.#server.maxConnections = MAX_HTTP_CONNECTIONS;
    // A client that asks first (`Expect: 100-continue`) is told no before it sends a body too big.
    this.#server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
      if (this.#refusal(request) === undefined && Number(request.headers["content-length"] ?? "0") <= DEFAULT_MAX_LINE_BYTES) response.writeContinue();
      this.#handle(request, response);
    });
    this.channel = new HttpChannel(() => this.#stop());
  }

  /** Listens on `host:port`; rejects with the listen error (`EADDRINUSE`...). Resolves with the endpoint's URL. */
  static async listen(options: HttpFrontOptions): Promise<{ front: HttpFront; url: string }> {
    const front = new HttpFront(options);
    await new Promise<void>((resolve, reject) => {
      front.#server.once("error", reject);
      front.#server.listen(options.port, options.host, () => {
        front.#server.off("error", reject);
        resolve();
      });
    });
    const address = front.#server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return { front, url: `http://${host}:${address.port}${MCP_PATH}` };
  }

  #stop(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const refusal = this.#refusal(request);
    if (refusal) {
      request.resume();
      return void plain(response, refusal.status, refusal.text, refusal.headers);
    }
    const declared = Number(request.headers["content-length"] ?? "0");
    if (declared > DEFAULT_MAX_LINE_BYTES) return tooLarge(request, response);
    const parts: Buffer[] = [];
    let length = 0;
    const take = (chunk: Buffer): void => {
      length += chunk.length;
      if (length <= DEFAULT_MAX_LINE_BYTES) return void parts.push(chunk);
      request.off("data", take);
      parts.length = 0;
      tooLarge(request, response);
    };
    request.on("data", take);
    request.on("end", () => {
      if (length <= DEFAULT_MAX_LINE_BYTES) this.#take(request, response, Buffer.concat(parts, length));
    });
    request.on("error", () => response.destroy());
  }

  // What is refused before the body is read.
  #refusal(request: IncomingMessage): { status: number; text: string; headers?: Record<string, string> } | undefined {
    const host = hostName(request.headers.host);
    if (host === undefined || !this.#allowedName(host)) return { status: 403, text: "Forbidden: Host is not a name this server answers to" };
    const origin = request.headers.origin;
    if (origin !== undefined && !this.#allowedOrigin(origin)) return { status: 403, text: "Forbidden: foreign Origin" };
    if (!this.#authorized(request.headers.authorization)) return { status: 401, text: "Unauthorized", headers: { "www-authenticate": "Bearer" } };
    if ((request.url ?? "").split("?")[0] !== MCP_PATH) return { status: 404, text: `Not Found: the MCP endpoint is ${MCP_PATH}` };
    if (request.method !== "POST")
      return { status: 405, text: "Method Not Allowed: this endpoint is stateless and takes POST only", headers: { allow: "POST" } };
    const type = request.headers["content-type"] ?? "";
    if (!type.toLowerCase().startsWith("application/json")) return { status: 415, text: "Unsupported Media Type: POST application/json" };
    return undefined;
  }

  // This machine's loopback names, or one the user gave.
  #allowedName(name: string): boolean {
    return isLoopbackHost(name) || this.#allowed.has(name.replace(/^\[(.*)\]$/, "$1").toLowerCase());
  }

  // A browser's page may call only from a name this server answers to.
  #allowedOrigin(origin: string): boolean {
    try {
      return this.#allowedName(new URL(origin).hostname);
    } catch {
      return false;
    }
  }

  #authorized(header: string | undefined): boolean {
    const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7).trim() : "");
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }

  #take(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
    } catch (error) {
      return void rpcError(response, 400, null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
    }
    if (!isJsonRpcMessage(value))
      return void rpcError(response, 400, requestId(value), INVALID_REQUEST, "Invalid Request: not one JSON-RPC 2.0 message (batches are not taken)");
    const message = value as JSONRPCMessage;
    const mismatch = headerMismatch(request, message);
    if (mismatch) return void rpcError(response, 400, requestId(value), HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${mismatch}`);
    if (!("method" in message) || !("id" in message)) {
      // A notification, or a response (lspmcp asks the client nothing): accepted, nothing to answer.
      if ("method" in message) this.channel.notification(message);
      response.writeHead(202).end();
      return;
    }
    if (this.channel.inFlight >= MAX_HTTP_IN_FLIGHT)
      return void rpcError(response, 503, message.id, BUSY, `lspmcp is busy: ${MAX_HTTP_IN_FLIGHT} requests are in flight; try again`, { "retry-after": "1" });
    const streams = wantsProgress(message) && (request.headers.accept ?? "").includes("text/event-stream");
    let answered = false;
    const exchange = this.channel.request(message, {
      notify: (notification) => {
        if (!streams || response.writableEnded) return;
        if (!response.headersSent) response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        response.write(`event: message\ndata: ${JSON.stringify(notification)}\n\n`);
      },
      answer: (answer) => {
        answered = true;
        if (response.writableEnded || response.destroyed) return;
        const text = JSON.stringify(answer);
        if (response.headersSent) response.end(`event: message\ndata: ${text}\n\n`);
        else if (streams)
          response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).end(`event: message\ndata: ${text}\n\n`);
        else response.writeHead(200, { "content-type": "application/json" }).end(text);
      },
    });
    response.on("close", () => {
      if (!answered) exchange.abandon();
    });
  }
}

// Refuses a body over the bound: the 413 goes out at once and nothing more of the body is kept.
// The connection stays open while the rest streams in and is dropped: closing it with unread data
// would reset it, and the client could lose the 413 it has not read yet. A client that keeps
// sending past four times the bound is cut off.
function tooLarge(request: IncomingMessage, response: ServerResponse): void {
  if (!response.headersSent) plain(response, 413, `Payload Too Large: at most ${DEFAULT_MAX_LINE_BYTES} bytes`);
  let dropped = 0;
  request.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > 4 * DEFAULT_MAX_LINE_BYTES) request.socket.destroy();
  });
}

function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(`${text}\n`);
}

function rpcError(response: ServerResponse, status: number, id: unknown, code: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
}

function requestId(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as string | number) : null;
}

function wantsProgress(message: JSONRPCMessage): boolean {
  const meta = ("params" in message ? (message.params?._meta as Record<string, unknown> | undefined) : undefined) ?? {};
  return meta.progressToken !== undefined;
}

// The name in a Host header, without its port.
function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

// The version headers must name a revision lspmcp speaks and agree with the body (2026-07-28).
function headerMismatch(request: IncomingMessage, message: JSONRPCMessage): string | undefined {
  const header = request.headers["mcp-protocol-version"];
  const version = typeof header === "string" ? header.trim() : undefined;
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version) && !MODERN_PROTOCOL_VERSIONS.includes(version))
    return `MCP-Protocol-Version ${version} is not one lspmcp speaks`;
  if (!("method" in message)) return undefined;
  const claimed = (message.params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
  if (version !== undefined && typeof claimed === "string" && claimed !== version)
    return `the body names protocol version ${claimed}, MCP-Protocol-Version ${version}`;
  const method = request.headers["mcp-method"];
  if (typeof method === "string" && method.trim() !== message.method) return `the body names method ${message.method}, Mcp-Method ${method.trim()}`;
  const name = request.headers["mcp-name"];
  const named = message.params?.name;
  if (typeof name === "string" && typeof named === "string" && name.trim() !== named) return `the body names ${named}, Mcp-Name ${name.trim()}`;
  return undefined;
}
