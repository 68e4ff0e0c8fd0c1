import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { PEER_PID_HEADER } from "./peer-headers.js";

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
 * (the server answers requests with JSON), and one GET event stream stays open for the session's
 * life, which tells the server that this peer is alive and brings any message the server sends
 * of its own accord. Messages pass through unchanged; this class only adds the session's headers.
 */
export class HttpUpstream {
  readonly target: UpstreamTarget;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #stream: AbortController | undefined;
  #lost = false;
  #closed = false;
  readonly #onServerMessage: (message: JSONRPCMessage) => void;
  readonly #onLost: () => void;

  constructor(target: UpstreamTarget, onServerMessage: (message: JSONRPCMessage) => void, onLost: () => void) {
    this.target = target;
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
    let response: Response;
    try {
      response = await fetch(this.target.url, {
        method: "POST",
        headers: { ...this.#headers(), "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(message),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw this.#lose(`cannot reach the shared server: ${causeOf(error)}`);
    }
    if (response.status === 202) {
      await response.body?.cancel();
      return [];
    }
    // 404: the server no longer knows this session (it restarted, or ended it); 5xx: it is going away.
    if (response.status === 404 || response.status >= 500) {
      await response.body?.cancel();
      throw this.#lose(`the shared server answered HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw this.#lose(`the shared server's answer broke off: ${causeOf(error)}`);
    }
    const replies = (Array.isArray(body) ? body : [body]).map((item) => reply(item, message));
    if (response.ok && isInitialize(message)) this.#opened(response, replies);
    return replies;
  }

  /** Ends the session (`DELETE`, briefly awaited) and the event stream; no `onLost` follows. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream?.abort();
    if (this.#lost || this.#sessionId === undefined) return;
    await fetch(this.target.url, { method: "DELETE", headers: this.#headers(), signal: AbortSignal.timeout(GOODBYE_TIMEOUT_MS) }).then(
      (response) => response.body?.cancel(),
      () => {},
    );
  }

  #opened(response: Response, replies: JSONRPCMessage[]): void {
    this.#sessionId = response.headers.get("mcp-session-id") ?? undefined;
    const result = replies[0] && "result" in replies[0] ? (replies[0].result as { protocolVersion?: unknown }) : undefined;
    if (typeof result?.protocolVersion === "string") this.#protocolVersion = result.protocolVersion;
    if (this.#sessionId !== undefined) this.#openStream();
  }

  // The event stream: server messages are forwarded; its end (not of our doing) means the server is gone.
  #openStream(): void {
    const controller = new AbortController();
    this.#stream = controller;
    const read = async (): Promise<void> => {
      const response = await fetch(this.target.url, { headers: { ...this.#headers(), accept: "text/event-stream" }, signal: controller.signal });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      let data: string[] = [];
      let pending = "";
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        pending += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, newline).replace(/\r$/, "");
          pending = pending.slice(newline + 1);
          if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
          else if (line === "" && data.length > 0) {
            this.#deliver(data.join("\n"));
            data = [];
          }
        }
      }
    };
    read().then(
      () => this.#streamEnded("the shared server ended the event stream"),
      (error: unknown) => this.#streamEnded(`the event stream failed: ${causeOf(error)}`),
    );
  }

  #deliver(text: string): void {
    try {
      const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(text));
      if (parsed.success) this.#onServerMessage(parsed.data);
    } catch {
      // Not a message (an SSE comment or keep-alive).
    }
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

  #headers(): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.target.token}`, [PEER_PID_HEADER]: String(process.pid) };
    if (this.#sessionId !== undefined) headers["mcp-session-id"] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers["mcp-protocol-version"] = this.#protocolVersion;
    return headers;
  }
}

function isInitialize(message: JSONRPCMessage): boolean {
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
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
