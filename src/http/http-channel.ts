import type { JSONRPCMessage, JSONRPCRequest, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { MessageChannel } from "../mcp/message-channel.js";
import { isRecord } from "../mcp/json-rpc-shape.js";

/** Where one HTTP exchange's messages go: its request's notifications, then its answer. */
interface ExchangeSink {
  /** A notification of the request (progress), its token already the client's own. */
  notify(message: JSONRPCMessage): void;
  /** The request's answer, its id already the client's own; the exchange is over. */
  answer(message: JSONRPCMessage): void;
}

/** A request under way: how to cancel it when its client goes away. */
interface Exchange {
  /** The client went away before the answer: the request's work is cancelled. */
  abandon(): void;
}

interface Route {
  readonly sink: ExchangeSink;
  readonly id: RequestId;
  readonly progressToken: string | number | undefined;
}

/**
 * Streamable HTTP as `serve` sees it: one message channel for every POST, as stdio is one for its
 * lines. Each request gets an id (and progress token) of the channel's own, so that requests of
 * different clients, which may use the same ids, never meet; its answer and notifications find
 * their way back to its own HTTP response by them. Stateless: nothing outlives an exchange.
 */
export class HttpChannel implements MessageChannel {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #routes = new Map<string, Route>();
  readonly #onClose: () => Promise<void>;
  #next = 0;
  #closed = false;

  /** `onClose` stops the HTTP listener when the channel is closed (`serve` shutting down). */
  constructor(onClose: () => Promise<void>) {
    this.#onClose = onClose;
  }

  /** Requests in flight. */
  get inFlight(): number {
    return this.#routes.size;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#onClose();
    this.onclose?.();
  }

  /** Takes one POSTed request; its answer goes to `sink`. */
  request(message: JSONRPCRequest, sink: ExchangeSink): Exchange {
    const own = `http-${++this.#next}`;
    const params = isRecord(message.params) ? message.params : undefined;
    const meta = params && isRecord(params._meta) ? params._meta : undefined;
    const progressToken = meta?.progressToken as string | number | undefined;
    this.#routes.set(own, { sink, id: message.id, progressToken });
    const renamed = progressToken === undefined ? params : { ...params, _meta: { ...meta, progressToken: own } };
    this.onmessage?.({ ...message, id: own, ...(renamed === undefined ? {} : { params: renamed }) } as JSONRPCMessage);
    return {
      abandon: () => {
        if (!this.#routes.delete(own)) return;
        this.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: own, reason: "the HTTP client went away" } });
      },
    };
  }

  /** Takes one POSTed notification (a client's cancellation names ids of its own, which mean nothing here: stateless HTTP cancels by closing the request). */
  notification(message: JSONRPCMessage): void {
    if ("method" in message && message.method !== "notifications/cancelled") this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#route(message);
  }

  async sendSerialized(json: string): Promise<void> {
    this.#route(JSON.parse(json) as JSONRPCMessage);
  }

  // An answer ends its exchange; a progress notification goes to the exchange of its token;
  // anything else names no exchange and has nowhere to go in stateless HTTP.
  #route(message: JSONRPCMessage): void {
    if ("id" in message && !("method" in message) && typeof message.id === "string") {
      const route = this.#routes.get(message.id);
      if (!route) return;
      this.#routes.delete(message.id);
      route.sink.answer({ ...message, id: route.id } as JSONRPCMessage);
      return;
    }
    if ("method" in message && message.method === "notifications/progress" && isRecord(message.params)) {
      const token = message.params.progressToken;
      const route = typeof token === "string" ? this.#routes.get(token) : undefined;
      if (route?.progressToken !== undefined)
        route.sink.notify({ ...message, params: { ...message.params, progressToken: route.progressToken } } as JSONRPCMessage);
    }
  }
}
