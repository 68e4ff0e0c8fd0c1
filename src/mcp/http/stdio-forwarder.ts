import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../../contract/logger.js";
import type { BoundedStdioTransport } from "../bounded-stdio-transport.js";
import { HttpUpstream, isInitialize, UpstreamLost, type UpstreamTarget } from "./http-upstream.js";

/** Finds (or elects) the shared server to attach to; rejects when there is none to be had. */
export type Attach = () => Promise<UpstreamTarget>;

/** JSON-RPC's "internal error", for a request whose shared server could not be replaced. */
const INTERNAL_ERROR = -32603;

/**
 * An attached lspmcp: the agent still talks MCP over stdio (with the bounded transport), and each
 * message goes on, unchanged, to the shared server. When that server is lost, the next message
 * elects or finds its successor, replays the agent's `initialize` there, and re-sends the message
 * whose outcome is unknown once: every lspmcp tool is read-only and idempotent, so a repeat is
 * harmless, and the agent never sees the change.
 */
export class StdioForwarder {
  readonly #stdio: BoundedStdioTransport;
  readonly #attach: Attach;
  readonly #logger: Logger;
  #upstream: HttpUpstream | undefined;
  #connecting: Promise<HttpUpstream> | undefined;
  /** The agent's initialize once answered: replayed on every new shared server. */
  #initialize: JSONRPCRequest | undefined;
  /** While the agent's own initialize is in flight, everything else waits for its session. */
  #initializing: Promise<void> | undefined;
  readonly #inFlight = new Map<string | number, AbortController>();
  #replays = 0;
  #closed = false;

  /** `first` is the shared server found at start; `attach` finds the successors. */
  constructor(stdio: BoundedStdioTransport, first: UpstreamTarget, attach: Attach, logger: Logger) {
    this.#stdio = stdio;
    this.#attach = attach;
    this.#logger = logger;
    this.#upstream = this.#upstreamFor(first);
    stdio.onmessage = (message) => void this.#forward(message);
  }

  /** Leaves the shared server (its session ends at once; the server outlives us while others remain). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#inFlight.values()) controller.abort();
    await this.#upstream?.close();
  }

  async #forward(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    if (isInitialize(message)) {
      const done = this.#deliver(message);
      this.#initializing = done.then(() => {});
      return done;
    }
    await this.#initializing;
    if ("method" in message && message.method === "notifications/cancelled") await this.#cancel(message);
    else await this.#deliver(message);
  }

  // Tells the server first (so the language server sees $/cancelRequest), then drops our wait:
  // a cancelled request gets no answer.
  async #cancel(message: JSONRPCMessage): Promise<void> {
    await this.#deliver(message);
    const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
    if (typeof requestId === "string" || typeof requestId === "number") this.#inFlight.get(requestId)?.abort();
  }

  async #deliver(message: JSONRPCMessage): Promise<void> {
    const id = "id" in message && !("result" in message) && !("error" in message) ? message.id : undefined;
    const controller = new AbortController();
    if (id !== undefined) this.#inFlight.set(id, controller);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const upstream = await this.#link();
          const replies = await upstream.send(message, controller.signal);
          if (isInitialize(message) && upstream.hasSession) this.#initialize = message;
          for (const reply of replies) await this.#stdio.send(reply);
          return;
        } catch (error) {
          if (controller.signal.aborted) return;
          if (error instanceof UpstreamLost && attempt === 0) {
            this.#logger.info("shared server lost; re-sending once", { reason: error.message });
            continue;
          }
          if (id !== undefined) await this.#fail(id, error);
          else this.#logger.warn("a notification could not be delivered", { reason: errorText(error) });
          return;
        }
      }
    } finally {
      if (id !== undefined) this.#inFlight.delete(id);
    }
  }

  async #fail(id: string | number, error: unknown): Promise<void> {
    const message = `lspmcp: the shared server was lost and could not be replaced: ${errorText(error)}`;
    await this.#stdio.send({ jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message } }).catch(() => {});
  }

  // One election at a time: every message that finds the server lost waits for the same successor.
  #link(): Promise<HttpUpstream> {
    if (this.#upstream && !this.#upstream.lost) return Promise.resolve(this.#upstream);
    this.#connecting ??= this.#reattach().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #reattach(): Promise<HttpUpstream> {
    if (this.#closed) throw new Error("closing");
    // A lost upstream sends no goodbye; closing it only drops its pooled connections.
    await this.#upstream?.close();
    this.#upstream = undefined;
    const target = await this.#attach();
    const upstream = this.#upstreamFor(target);
    if (this.#initialize) {
      const replayed = await upstream.send({ ...this.#initialize, id: `lspmcp-replay-${++this.#replays}` });
      if (!upstream.hasSession || replayed.some((reply) => "error" in reply)) throw new UpstreamLost("the new shared server refused the replayed initialize");
      await upstream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      this.#logger.info("attached to a new shared server", { url: target.url });
    }
    this.#upstream = upstream;
    return upstream;
  }

  #upstreamFor(target: UpstreamTarget): HttpUpstream {
    return new HttpUpstream(
      target,
      (message) => void this.#stdio.send(message).catch(() => {}),
      () => this.#logger.info("shared server gone; the next message elects its successor", { url: target.url }),
    );
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
