import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * One attached MCP client of the shared server: one MCP session, over Streamable HTTP (an HTTP
 * client) or over the peer socket (an attached lspmcp).
 */
export interface Peer {
  readonly sessionId: string;
  readonly door: "http" | "socket";
  /** The lspmcp process on the other side, when it said (socket hello, or header `lspmcp-peer-pid`). */
  readonly peerPid: number | null;
  readonly connectedAt: number;
  lastActivity: number;
  requests: number;
  inFlight: number;
  /** Open GET event streams, or 1 for a socket peer's connection: a peer holding one is alive. */
  streams: number;
  /** Hands one HTTP request of this peer's session to its MCP transport (HTTP peers only). */
  readonly handle?: (request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;
  /** Ends the peer's MCP session; `PeerTable.remove` follows through the session's close. */
  end(): Promise<void>;
}

/** A peer as `lspmcp status` shows it. */
export interface PeerInfo {
  readonly session: string;
  readonly door: "http" | "socket";
  readonly peer_pid: number | null;
  readonly connected_ms: number;
  readonly idle_ms: number;
  readonly requests: number;
  readonly in_flight: number;
  readonly streams: number;
}

/**
 * The shared server's peers. It tells its owner when the count changes (the server lives while
 * any peer remains) and ends peers that went quiet: no request in flight, no open event stream,
 * and no request for `idleMs`.
 */
export class PeerTable {
  readonly #peers = new Map<string, Peer>();
  readonly #idleMs: number;
  readonly #onCountChange: (count: number) => void;
  readonly #sweep: NodeJS.Timeout;

  constructor(idleMs: number, onCountChange: (count: number) => void) {
    this.#idleMs = idleMs;
    this.#onCountChange = onCountChange;
    this.#sweep = setInterval(() => this.#endIdle(), Math.min(30_000, Math.max(50, Math.floor(idleMs / 4))));
    this.#sweep.unref();
  }

  get size(): number {
    return this.#peers.size;
  }

  get(sessionId: string): Peer | undefined {
    return this.#peers.get(sessionId);
  }

  add(peer: Peer): void {
    this.#peers.set(peer.sessionId, peer);
    this.#onCountChange(this.#peers.size);
  }

  remove(sessionId: string): void {
    if (this.#peers.delete(sessionId)) this.#onCountChange(this.#peers.size);
  }

  /** Peers in order of arrival, as `lspmcp status` lists them. */
  list(now = Date.now()): PeerInfo[] {
    return [...this.#peers.values()].map((peer) => ({
      session: peer.sessionId,
      door: peer.door,
      peer_pid: peer.peerPid,
      connected_ms: now - peer.connectedAt,
      idle_ms: peer.inFlight > 0 ? 0 : now - peer.lastActivity,
      requests: peer.requests,
      in_flight: peer.inFlight,
      streams: peer.streams,
    }));
  }

  /** Ends every peer (the server is shutting down). */
  async endAll(): Promise<void> {
    await Promise.all([...this.#peers.values()].map((peer) => peer.end()));
    clearInterval(this.#sweep);
  }

  #endIdle(): void {
    const now = Date.now();
    for (const peer of this.#peers.values()) {
      if (peer.inFlight === 0 && peer.streams === 0 && now - peer.lastActivity >= this.#idleMs) peer.end().catch(() => {});
    }
  }
}
