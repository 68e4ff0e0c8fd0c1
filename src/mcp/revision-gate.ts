import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { MessageChannel } from "./message-channel.js";
import { cancelledRequestId } from "./json-rpc-shape.js";
import { classifyRequest, stampResult } from "./revision-2026.js";

/**
 * Serves both MCP revisions on one channel: in front of everything `serve` does (the startup
 * responder, the standalone server, the forwarder to the shared server), it answers what revision
 * 2026-07-28 defines without a session ({@link classifyRequest}), lets every other 2026 request
 * through as the old machinery knows it, and stamps that request's result on its way out
 * (`resultType`, the server's identity). An old client's messages, and every answer to them, pass
 * untouched: the same bytes as without the gate.
 */
export class RevisionGate implements MessageChannel {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #inner: MessageChannel;
  readonly #version: string;
  /** 2026 requests let through and not yet answered. */
  readonly #modern = new Set<RequestId>();

  constructor(inner: MessageChannel, version: string) {
    this.#inner = inner;
    this.#version = version;
    inner.onmessage = (message) => this.#take(message);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#inner.send(this.#modern.size === 0 ? message : this.#stamped(message));
  }

  sendSerialized(json: string): Promise<void> {
    // Notifications (progress) go out as they are; only a 2026 request's answer is rewritten.
    if (this.#modern.size === 0 || json.startsWith('{"method"')) return this.#inner.sendSerialized(json);
    const message = JSON.parse(json) as JSONRPCMessage;
    const stamped = this.#stamped(message);
    return stamped === message ? this.#inner.sendSerialized(json) : this.#inner.send(stamped);
  }

  #take(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      const route = classifyRequest(message.id, message.method, message.params, this.#version);
      if (route.kind === "answer") {
        this.#inner.send(route.reply).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
        return;
      }
      if (route.kind === "modern") this.#modern.add(message.id);
    } else {
      // A cancelled request is never answered.
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) this.#modern.delete(cancelled);
    }
    this.onmessage?.(message);
  }

  #stamped(message: JSONRPCMessage): JSONRPCMessage {
    if (!("result" in message) || !this.#modern.delete(message.id)) return message;
    return { result: stampResult(message.result, this.#version), jsonrpc: "2.0", id: message.id } as JSONRPCMessage;
  }
}
