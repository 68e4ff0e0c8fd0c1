import type { Socket } from "node:net";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { BoundedLineTransport } from "../mcp/bounded-line-transport.js";
import { cancelledRequestId } from "../mcp/json-rpc-shape.js";
import type { Peer } from "./peer-table.js";

/**
 * The MCP transport of one socket peer, over its authenticated connection: newline-delimited
 * JSON-RPC with the stdin bounds (`lines` is a {@link BoundedLineTransport} reading and writing
 * the socket). It keeps the peer's counts for `lspmcp status` and the idle rule: requests seen,
 * requests not yet answered (a cancelled one counts as answered), last activity.
 */
export class SocketPeerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly sessionId: string;

  readonly #lines: BoundedLineTransport;
  readonly #socket: Socket;
  readonly #peer: Peer;
  readonly #open = new Set<string | number>();

  constructor(lines: BoundedLineTransport, socket: Socket, peer: Peer) {
    this.#lines = lines;
    this.#socket = socket;
    this.#peer = peer;
    this.sessionId = peer.sessionId;
  }

  /** Takes over the connection's messages (it is already being read: the hello came on it). */
  async start(): Promise<void> {
    this.#lines.onmessage = (message) => {
      this.#count(message);
      this.onmessage?.(message);
    };
    this.#lines.onerror = (error) => this.onerror?.(error);
    this.#lines.onclose = () => this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (("result" in message || "error" in message) && message.id !== undefined) this.#settle(message.id);
    return this.#lines.send(message);
  }

  /** Ends the connection; `onclose` follows once. */
  async close(): Promise<void> {
    this.#socket.destroy();
    await this.#lines.close();
  }

  #count(message: JSONRPCMessage): void {
    this.#peer.lastActivity = Date.now();
    if (!("method" in message)) return;
    if ("id" in message) {
      this.#peer.requests++;
      this.#peer.inFlight++;
      this.#open.add(message.id);
      return;
    }
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) this.#settle(cancelled);
  }

  #settle(id: string | number): void {
    if (!this.#open.delete(id)) return;
    this.#peer.inFlight--;
    this.#peer.lastActivity = Date.now();
  }
}
