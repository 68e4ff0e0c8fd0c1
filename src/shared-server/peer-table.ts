/**
 * One attached lspmcp of the shared server: one MCP session over one connection to the peer
 * socket. Its counts are kept by its transport, for `lspmcp status`.
 */
export interface Peer {
  readonly sessionId: string;
  /** The attached lspmcp process, as its hello named it. */
  readonly peerPid: number;
  readonly connectedAt: number;
  lastActivity: number;
  requests: number;
  inFlight: number;
  /** Ends the peer's connection; `PeerTable.remove` follows through the session's close. */
  end(): Promise<void>;
}

/** A peer as `lspmcp status` shows it. */
interface PeerInfo {
  readonly session: string;
  readonly peer_pid: number;
  readonly connected_ms: number;
  readonly idle_ms: number;
  readonly requests: number;
  readonly in_flight: number;
}

/**
 * The shared server's peers. It tells its owner when the count changes: the server lives while
 * any peer remains, and a peer is gone when its connection is (a killed worker is noticed at once).
 */
export class PeerTable {
  readonly #peers = new Map<string, Peer>();
  readonly #onCountChange: (count: number) => void;

  constructor(onCountChange: (count: number) => void) {
    this.#onCountChange = onCountChange;
  }

  get size(): number {
    return this.#peers.size;
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
      peer_pid: peer.peerPid,
      connected_ms: now - peer.connectedAt,
      idle_ms: peer.inFlight > 0 ? 0 : now - peer.lastActivity,
      requests: peer.requests,
      in_flight: peer.inFlight,
    }));
  }

  /** Ends every peer (the server is shutting down). */
  async endAll(): Promise<void> {
    await Promise.all([...this.#peers.values()].map((peer) => peer.end()));
  }
}
