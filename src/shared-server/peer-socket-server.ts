import { randomUUID } from "node:crypto";
import { chmodSync, unlinkSync } from "node:fs";
import { createServer, type Server as NetServer, type Socket } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Logger } from "../contract/logger.js";
import { BoundedLineTransport } from "../mcp/bounded-line-transport.js";
import type { CallAdmission } from "../mcp/call-tool.js";
import type { PeerQueue } from "./fair-scheduler.js";
import type { Peer, PeerTable } from "./peer-table.js";
import { helloPid } from "../mcp/socket-hello.js";
import { SocketPeerTransport } from "./socket-peer-transport.js";
import { errorText } from "../contract/errors.js";

/** How long a new connection may take to say its hello before it is dropped. */
const HELLO_TIMEOUT_MS = 5000;

interface PeerSocketServerOptions {
  /**
   * A fresh MCP server for each peer (all of them over the one session registry), whose tool
   * calls take their turns at `admission`, the peer's queue of the shared server's fair scheduler.
   */
  readonly createMcpServer: (admission: CallAdmission) => Server;
  /** A new queue of the shared server's one fair scheduler. */
  readonly queue: () => PeerQueue;
  /** The lease's secret, which the hello must carry. */
  readonly token: string;
  /** The shared server's one peer table. */
  readonly peers: PeerTable;
  /** False once the server takes no new peers. */
  readonly accepting: () => boolean;
  readonly logger: Logger;
  /** How long a new connection may take to say its hello; default {@link HELLO_TIMEOUT_MS}. */
  readonly helloTimeoutMs?: number;
}

/**
 * The shared server's endpoint for attached lspmcp processes: a Unix domain socket (mode 0600, in the
 * owner-only lease folder) carrying newline-delimited JSON-RPC, one MCP session per connection,
 * one write per message each way. A connection is a peer only after its first line, the hello,
 * carried the lease's token (within `helloTimeoutMs`); before that any other line, a bad
 * one or one over the bound ends it unanswered. After it, every line is bounded and answered as
 * stdin lines are (4 MiB, CONTRACT §1), and the connection's end is the peer's end.
 */
export class PeerSocketServer {
  readonly #options: PeerSocketServerOptions;
  readonly #server: NetServer;
  readonly #sockets = new Set<Socket>();
  #path: string | undefined;

  constructor(options: PeerSocketServerOptions) {
    this.#options = options;
    this.#server = createServer((socket) => this.#accept(socket));
  }

  /** Listens at `path` (a stale socket file of a dead server of the same pid is replaced). */
  listen(path: string): Promise<void> {
    try {
      unlinkSync(path);
    } catch {
      // None there.
    }
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(path, () => {
        this.#server.off("error", reject);
        this.#path = path;
        chmodSync(path, 0o600);
        resolve();
      });
    });
  }

  /** Stops listening, ends every connection and removes the socket file. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    if (this.#path !== undefined) {
      try {
        unlinkSync(this.#path);
      } catch {
        // Already gone.
      }
    }
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    socket.once("close", () => this.#sockets.delete(socket));
    socket.on("error", () => {});
    const lines = new BoundedLineTransport(socket, socket);
    const timer = setTimeout(() => socket.destroy(), this.#options.helloTimeoutMs ?? HELLO_TIMEOUT_MS);
    socket.once("close", () => {
      clearTimeout(timer);
      void lines.close();
    });
    lines.onerror = () => socket.destroy();
    lines.onmessage = (message) => {
      clearTimeout(timer);
      const pid = helloPid(message, this.#options.token);
      if (pid === undefined || !this.#options.accepting()) {
        socket.destroy();
        return;
      }
      this.#open(socket, lines, pid).catch((error: unknown) => {
        this.#options.logger.warn("socket peer failed", { error: errorText(error) });
        socket.destroy();
      });
    };
    void lines.start();
  }

  async #open(socket: Socket, lines: BoundedLineTransport, pid: number): Promise<void> {
    const now = Date.now();
    const queue = this.#options.queue();
    const server = this.#options.createMcpServer(queue);
    let transport: SocketPeerTransport | undefined;
    const peer: Peer = {
      sessionId: randomUUID(),
      peerPid: pid,
      connectedAt: now,
      lastActivity: now,
      requests: 0,
      inFlight: 0,
      end: async () => transport?.close(),
    };
    transport = new SocketPeerTransport(lines, socket, peer);
    // Bad lines from an authenticated peer are answered and logged, as on stdin; they end nothing.
    transport.onerror = (error) => this.#options.logger.debug("socket peer sent a bad line", { error: error.message });
    server.onclose = () => {
      queue.close();
      this.#options.peers.remove(peer.sessionId);
    };
    this.#options.peers.add(peer);
    await server.connect(transport);
  }
}
