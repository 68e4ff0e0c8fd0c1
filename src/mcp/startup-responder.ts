import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { MessageChannel } from "./message-channel.js";
import { answerLocally } from "./local-answers.js";

/** What the startup responder passes on to the part of `serve` that takes over stdio. */
export interface Handover {
  /** The agent's `initialize`, already answered; undefined when none came (or an odd one, queued). */
  readonly initialize: JSONRPCRequest | undefined;
  /** Every message the startup responder did not answer, in arrival order. */
  readonly queued: readonly JSONRPCMessage[];
  /** stdin ended before the hand-over. */
  readonly closed: boolean;
}

/**
 * Serves the agent from the first line, before `serve` has loaded its config or any of its
 * machinery: `initialize`, `tools/list` and `ping` are answered at once ({@link answerLocally}:
 * as the SDK's server answers them, and none of them depends on the config), and
 * every other message is held in order. Then `handOver` gives the rest to the standalone server
 * or the forwarder. Why: loading the config and the SDK's server takes most of the 300+ ms from
 * spawn to `initialize` answered.
 */
export class StartupResponder {
  readonly #stdio: MessageChannel;
  readonly #version: string;
  #initialize: JSONRPCRequest | undefined;
  readonly #queued: JSONRPCMessage[] = [];
  #closed = false;

  constructor(stdio: MessageChannel, version: string) {
    this.#stdio = stdio;
    this.#version = version;
    stdio.onmessage = (message) => this.#take(message);
    stdio.onclose = () => {
      this.#closed = true;
    };
  }

  /** Stops answering; the caller sets its own handlers on the transport in the same tick. */
  handOver(): Handover {
    this.#stdio.onmessage = undefined;
    this.#stdio.onclose = undefined;
    return { initialize: this.#initialize, queued: [...this.#queued], closed: this.#closed };
  }

  #take(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      const local = answerLocally(message, this.#version, this.#initialize !== undefined);
      if (local) {
        if (local.initialize) this.#initialize = message;
        this.#stdio.send(local.reply).catch(() => {});
        return;
      }
    }
    this.#queued.push(message);
  }
}

/**
 * stdio as the SDK's server sees it after the startup responder: the initialize the startup responder answered is replayed
 * to it under a private id (so it knows the client as it would have) and that answer dropped; then,
 * on `release`, the held messages; then the live stream.
 */
export class HandedOverTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdio: MessageChannel;
  readonly #initialize: JSONRPCRequest | undefined;
  // Held until `release`: what the startup responder queued, then whatever comes before the release.
  #held: JSONRPCMessage[] | null;
  #closed: boolean;
  #replayId: string | undefined;

  constructor(stdio: MessageChannel, handover: Handover) {
    this.#stdio = stdio;
    this.#initialize = handover.initialize;
    this.#held = [...handover.queued];
    this.#closed = handover.closed;
  }

  /** The startup responder has started stdio already; this only wires it. */
  async start(): Promise<void> {
    this.#stdio.onmessage = (message) => (this.#held ? this.#held.push(message) : this.onmessage?.(message));
    this.#stdio.onclose = () => (this.#held ? (this.#closed = true) : this.onclose?.());
    this.#stdio.onerror = (error) => this.onerror?.(error);
  }

  /** Delivers what was held, in order, once the server (and its direct tools/call path) is connected. */
  release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    if (this.#initialize) {
      this.#replayId = "lspmcp-handshake-replay";
      this.onmessage?.({ ...this.#initialize, id: this.#replayId });
    }
    for (const message of held) this.onmessage?.(message);
    if (this.#closed) this.onclose?.();
  }

  // Answers go out on stdio whatever stream they relate to: there is only the one.
  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#replayId !== undefined && "id" in message && message.id === this.#replayId && !("method" in message)) {
      this.#replayId = undefined;
      return Promise.resolve();
    }
    return this.#stdio.send(message);
  }

  close(): Promise<void> {
    return this.#stdio.close();
  }
}
