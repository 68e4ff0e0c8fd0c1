import type { JSONRPCMessage, JSONRPCRequest, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../contract/logger.js";
import type { MessageChannel } from "../mcp/message-channel.js";
import type { Handover } from "../mcp/startup-responder.js";
import { cancelledRequestId } from "../mcp/json-rpc-shape.js";
import { answerLocally } from "../mcp/local-answers.js";
import type { LineHandler, Upstream } from "./socket-upstream.js";
import { TOOL_LIST } from "../mcp/tool-list.js";
import { errorText } from "../contract/errors.js";

/**
 * Opens the link to the sessions: the shared server (found, or elected in the background), or,
 * when none can be had, sessions of this process's own. Rejects only when neither is possible.
 */
export type Attach = (onLine: LineHandler, onLost: (reason: string) => void) => Promise<Upstream>;

/** JSON-RPC's "internal error", for a request whose answer was lost with its shared server. */
const INTERNAL_ERROR = -32603;

/** How often the agent's initialize is replayed on a new link before the link is given up. */
const REPLAY_ATTEMPTS = 3;

/** Tools whose calls may be sent twice: those annotated idempotent in the `tools/list` answer. */
const IDEMPOTENT_TOOLS = new Set(TOOL_LIST.filter((tool) => tool.annotations?.idempotentHint === true).map((tool) => tool.name));

interface Pending {
  readonly message: JSONRPCRequest;
  resent: boolean;
}

/**
 * An attached lspmcp: the agent talks MCP over stdio (the bounded transport) and is answered at
 * once for what needs no session ({@link answerLocally}: `initialize`, `tools/list` and `ping`,
 * exactly as the SDK's server answers them) while the link to the shared server is made in the background. Every
 * other message goes on unchanged once the link has replayed the agent's `initialize`; the
 * server's messages come back as their own text. When the shared server is lost, the next link
 * is made at once (electing a successor), and each unanswered request is re-sent there once if
 * repeating it is harmless: a `tools/call` only when its tool is annotated `idempotentHint`.
 * Any other is answered with an error saying its outcome is unknown.
 */
export class StdioForwarder {
  readonly #stdio: MessageChannel;
  readonly #attach: Attach;
  readonly #logger: Logger;
  readonly #version: string;
  #upstream: Upstream | undefined;
  #linking: Promise<Upstream> | undefined;
  /** The agent's initialize, answered here: replayed on every link. */
  #initialize: JSONRPCRequest | undefined;
  /** Whether the current link has had the agent's initialize replayed. */
  #initialized = false;
  #replaying: Promise<void> | undefined;
  #replays = 0;
  readonly #replayWaiters = new Map<string, (message: Record<string, unknown>) => void>();
  readonly #pending = new Map<RequestId, Pending>();
  #closed = false;

  #handover: Handover | undefined;

  /** Takes stdio over from the front (`handover`: what it answered and held). */
  constructor(stdio: MessageChannel, attach: Attach, version: string, logger: Logger, handover: Handover) {
    this.#stdio = stdio;
    this.#attach = attach;
    this.#version = version;
    this.#logger = logger;
    this.#initialize = handover.initialize;
    this.#handover = handover;
    stdio.onmessage = (message) => void this.#take(message);
  }

  /**
   * Starts the link in the background (the agent is answered meanwhile; with the front's
   * initialize, the session on the shared server is opened now, not at the first call) and
   * passes on what the front held, in order.
   */
  start(): void {
    (this.#initialize ? this.#ready() : this.#link()).catch(() => {});
    const held = this.#handover?.queued ?? [];
    this.#handover = undefined;
    for (const message of held) void this.#take(message);
  }

  /** Leaves the shared server (its session ends at once) or ends this process's own sessions. */
  async close(): Promise<void> {
    this.#closed = true;
    const upstream = this.#upstream ?? (await this.#linking?.catch(() => undefined));
    await upstream?.close();
  }

  async #take(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    if ("method" in message && "id" in message) {
      const local = answerLocally(message, this.#version, this.#initialize !== undefined);
      if (local) {
        this.#stdio.send(local.reply).catch(() => {});
        if (local.initialize) {
          this.#initialize = message;
          // The session on the shared server is opened now, not at the first call.
          this.#ready().catch(() => {});
        }
        return;
      }
      this.#pending.set(message.id, { message, resent: false });
    } else if ("method" in message && message.method === "notifications/initialized" && this.#initialize) {
      return; // Each link sends its own after the replay.
    } else {
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) this.#pending.delete(cancelled);
    }
    await this.#deliver(message);
  }

  async #deliver(message: JSONRPCMessage): Promise<void> {
    try {
      const upstream = await this.#ready();
      upstream.send(message);
    } catch (error) {
      this.#failAll(`lspmcp: no shared server could be had: ${errorText(error)}`);
    }
  }

  // The link, with the agent's initialize replayed on it (once per link). A link lost during the
  // replay is made again; a server that refuses the replay three times is given up.
  async #ready(): Promise<Upstream> {
    for (let attempt = 1; ; attempt++) {
      const upstream = await this.#link();
      if (!this.#initialize || this.#initialized) return upstream;
      this.#replaying ??= this.#replay(upstream).finally(() => (this.#replaying = undefined));
      try {
        await this.#replaying;
        return upstream;
      } catch (error) {
        if (attempt >= REPLAY_ATTEMPTS) throw error;
      }
    }
  }

  async #replay(upstream: Upstream): Promise<void> {
    const id = `lspmcp-replay-${++this.#replays}`;
    const answered = new Promise<Record<string, unknown>>((resolve) => this.#replayWaiters.set(id, resolve));
    upstream.send({ ...this.#initialize!, id });
    const answer = await answered;
    if ("error" in answer) throw new Error(`the shared server did not take the replayed initialize: ${JSON.stringify(answer.error)}`);
    upstream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    if (this.#upstream === upstream) this.#initialized = true;
  }

  // One link at a time: every message that finds none waits for the same one.
  #link(): Promise<Upstream> {
    if (this.#upstream) return Promise.resolve(this.#upstream);
    if (this.#closed) return Promise.reject(new Error("closing"));
    this.#linking ??= this.#attach(
      (line) => this.#fromUpstream(line),
      (reason) => this.#lost(reason),
    )
      .then((upstream) => {
        this.#upstream = upstream;
        this.#initialized = false;
        return upstream;
      })
      .finally(() => (this.#linking = undefined));
    return this.#linking;
  }

  #fromUpstream(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.#logger.warn("the shared server sent a line that is not JSON");
      return;
    }
    const id = message.id;
    if (("result" in message || "error" in message) && (typeof id === "string" || typeof id === "number")) {
      const waiter = typeof id === "string" ? this.#replayWaiters.get(id) : undefined;
      if (waiter) {
        this.#replayWaiters.delete(id as string);
        return waiter(message);
      }
      this.#pending.delete(id);
    }
    // The server's own text goes out as it came: no second serialisation of a large result.
    this.#stdio.sendSerialized(line).catch(() => {});
  }

  // The shared server is gone: link again at once, and re-send there what may be repeated.
  #lost(reason: string): void {
    if (this.#closed) return;
    this.#logger.info("shared server lost; linking to its successor", { reason });
    this.#upstream = undefined;
    for (const [id, waiter] of this.#replayWaiters) waiter({ error: { message: "the shared server was lost" }, id });
    this.#replayWaiters.clear();
    const again: JSONRPCRequest[] = [];
    for (const [id, pending] of this.#pending) {
      if (!pending.resent && repeatable(pending.message)) {
        pending.resent = true;
        again.push(pending.message);
      } else {
        this.#pending.delete(id);
        this.#fail(
          id,
          `lspmcp: the shared server was lost while this request ran, and ${pending.resent ? "it was lost again after one re-send" : "it is not idempotent, so it was not sent again"}: ${reason}`,
        );
      }
    }
    this.#ready().then(
      (upstream) => {
        for (const message of again) if (this.#pending.has(message.id)) upstream.send(message);
      },
      (error: unknown) => this.#failAll(`lspmcp: the shared server was lost and could not be replaced: ${errorText(error)}`),
    );
  }

  #failAll(text: string): void {
    for (const id of this.#pending.keys()) this.#fail(id, text);
    this.#pending.clear();
  }

  #fail(id: RequestId, text: string): void {
    this.#stdio.send({ jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message: text } }).catch(() => {});
  }
}

// A request may be repeated unless it is a call of a tool not annotated idempotent (an unknown
// tool is refused without effect either time).
function repeatable(message: JSONRPCRequest): boolean {
  if (message.method !== "tools/call") return true;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name !== "string" || IDEMPOTENT_TOOLS.has(name) || !TOOL_LIST.some((tool) => tool.name === name);
}
