import { Agent, request as httpRequest, type IncomingMessage } from "node:http";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { PEER_PID_HEADER } from "./peer-headers.js";
import { sseEvents } from "./sse-events.js";

/** Where an attached lspmcp sends its messages: a shared server's MCP endpoint and its secret. */
export interface UpstreamTarget {
  readonly url: string;
  readonly token: string;
}

/** The shared server was lost (refused, reset, gone, or no longer knows the session): the outcome of the send is unknown. */
export class UpstreamLost extends Error {
  override readonly name = "UpstreamLost";
}

/** Longest wait for the goodbye (`DELETE`) of a closing peer. */
const GOODBYE_TIMEOUT_MS = 1000;

/**
 * One MCP session on a shared server, as seen by an attached lspmcp: each message is one POST
 * (the server answers a request on that POST's event stream), and one GET event stream stays
 * open for the session's life, which tells the server that this peer is alive and brings any
 * message the server sends of its own accord. Messages pass through unchanged; this class only
 * adds the session's headers. Plain node:http with keep-alive: a forwarder per worker must be
 * cheap in memory and CPU.
 */
export class HttpUpstream {
  readonly target: UpstreamTarget;
  readonly #url: URL;
  readonly #agent = new Agent({ keepAlive: true });
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #stream: AbortController | undefined;
  #lost = false;
  #closed = false;
  readonly #onServerMessage: (message: JSONRPCMessage) => void;
  readonly #onLost: () => void;

  constructor(target: UpstreamTarget, onServerMessage: (message: JSONRPCMessage) => void, onLost: () => void) {
    this.target = target;
    this.#url = new URL(target.url);
    this.#onServerMessage = onServerMessage;
    this.#onLost = onLost;
  }

  /** True once the server was found gone; a lost upstream is never used again. */
  get lost(): boolean {
    return this.#lost;
  }

  /** True once an initialize has opened a session on the server. */
  get hasSession(): boolean {
    return this.#sessionId !== undefined;
  }

  /**
   * Sends one message; resolves with the server's replies (none for a notification). Rejects with
   * {@link UpstreamLost} when the server cannot be reached or no longer knows the session, and
   * with the signal's reason when `signal` aborts first.
   */
  async send(message: JSONRPCMessage, signal?: AbortSignal): Promise<JSONRPCMessage[]> {
    if (this.#lost) throw new UpstreamLost("the shared server was lost");
    const body = JSON.stringify(message);
    let response: IncomingMessage;
    try {
      response = await this.#request("POST", { "content-type": "application/json", accept: "application/json, text/event-stream" }, body, signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw this.#lose(`cannot reach the shared server: ${causeOf(error)}`);
    }
    const status = response.statusCode ?? 0;
    // 404: the server no longer knows this session (it restarted, or ended it); 5xx: it is going away.
    if (status === 202 || status === 404 || status >= 500) {
      response.resume();
      if (status === 202) return [];
      throw this.#lose(`the shared server answered HTTP ${status}`);
    }
    let replies: JSONRPCMessage[];
    try {
      replies = response.headers["content-type"]?.startsWith("text/event-stream")
        ? await this.#repliesFromStream(response, message)
        : toArray(JSON.parse(await readAll(response))).map((item) => reply(item, message));
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw this.#lose(`the shared server's answer broke off: ${causeOf(error)}`);
    }
    if (status < 300 && isInitialize(message)) this.#opened(response, replies);
    return replies;
  }

  /** Ends the session (`DELETE`, briefly awaited) and the event stream; no `onLost` follows. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream?.abort();
    if (!this.#lost && this.#sessionId !== undefined) {
      await this.#request("DELETE", {}, undefined, AbortSignal.timeout(GOODBYE_TIMEOUT_MS)).then(
        (response) => response.resume(),
        () => {},
      );
    }
    this.#agent.destroy();
  }

  // The server answers a request on an event stream of its own: what it sends there besides the
  // response goes straight to the agent. The stream is read to its end (the server closes it
  // after the response), so its connection goes back to the pool.
  #repliesFromStream(response: IncomingMessage, sent: JSONRPCMessage): Promise<JSONRPCMessage[]> {
    const id = "id" in sent ? sent.id : undefined;
    return new Promise((resolve, reject) => {
      let answered = false;
      const read = async (): Promise<void> => {
        for await (const data of sseEvents(response)) {
          const message = parseMessage(data);
          if (message === undefined) continue;
          if (!answered && ("result" in message || "error" in message) && message.id === id) {
            answered = true;
            resolve([message]);
          } else this.#onServerMessage(message);
        }
        if (!answered) throw new Error("the event stream ended before the response");
      };
      read().catch((error: unknown) => {
        if (!answered) reject(error);
      });
    });
  }

  #opened(response: IncomingMessage, replies: JSONRPCMessage[]): void {
    const sessionId = response.headers["mcp-session-id"];
    this.#sessionId = typeof sessionId === "string" ? sessionId : undefined;
    const result = replies[0] && "result" in replies[0] ? (replies[0].result as { protocolVersion?: unknown }) : undefined;
    if (typeof result?.protocolVersion === "string") this.#protocolVersion = result.protocolVersion;
    if (this.#sessionId !== undefined) this.#openStream();
  }

  // The event stream: server messages are forwarded; its end (not of our doing) means the server is gone.
  #openStream(): void {
    const controller = new AbortController();
    this.#stream = controller;
    const read = async (): Promise<void> => {
      const response = await this.#request("GET", { accept: "text/event-stream" }, undefined, controller.signal);
      if (response.statusCode !== 200) {
        response.resume();
        throw new Error(`HTTP ${response.statusCode}`);
      }
      for await (const data of sseEvents(response)) {
        const message = parseMessage(data);
        if (message !== undefined) this.#onServerMessage(message);
      }
    };
    read().then(
      () => this.#streamEnded("the shared server ended the event stream"),
      (error: unknown) => this.#streamEnded(`the event stream failed: ${causeOf(error)}`),
    );
  }

  #streamEnded(reason: string): void {
    if (this.#closed || this.#lost) return;
    this.#lose(reason);
    this.#onLost();
  }

  #lose(reason: string): UpstreamLost {
    this.#lost = true;
    this.#stream?.abort();
    return new UpstreamLost(reason);
  }

  #request(method: string, extra: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...this.#headers(), ...extra };
      if (body !== undefined) headers["content-length"] = Buffer.byteLength(body);
      const request = httpRequest(this.#url, { method, headers, agent: this.#agent, signal }, resolve);
      request.once("error", reject);
      request.end(body);
    });
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.target.token}`, [PEER_PID_HEADER]: String(process.pid) };
    if (this.#sessionId !== undefined) headers["mcp-session-id"] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers["mcp-protocol-version"] = this.#protocolVersion;
    return headers;
  }
}

async function readAll(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

// The shared server is lspmcp itself, reached with its secret: its messages are passed on after a
// shape check, not re-validated field by field (a tool result can be large, and every worker's
// forwarder would pay for that on every call).
function parseMessage(data: string): JSONRPCMessage | undefined {
  try {
    const value = JSON.parse(data) as { jsonrpc?: unknown } | null;
    return typeof value === "object" && value !== null && value.jsonrpc === "2.0" ? (value as JSONRPCMessage) : undefined;
  } catch {
    return undefined;
  }
}

function toArray(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** Is `message` an `initialize` request (the one message that opens a session)? */
export function isInitialize(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && message.method === "initialize" && "id" in message;
}

// The server's errors for a request it refused at the HTTP level carry id null: they are the
// answer to this request, so they get its id.
function reply(item: unknown, sent: JSONRPCMessage): JSONRPCMessage {
  const record = item as { id?: unknown; error?: unknown };
  if (record && typeof record === "object" && record.id === null && record.error && "id" in sent) {
    return { ...(record as object), id: sent.id } as JSONRPCMessage;
  }
  return item as JSONRPCMessage;
}

function causeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
