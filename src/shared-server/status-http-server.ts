import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Logger } from "../contract/logger.js";
import { PROBE_PATH, STATUS_PATH } from "../sharing/probe-lease.js";
import { readJsonBody } from "../mcp/http/request-body.js";
import { PeerTable, type Peer } from "./peer-table.js";
import { guardRequest } from "./request-guard.js";
import { FairScheduler, type CallGate, type FairSchedulerLimits } from "./fair-scheduler.js";
import { errorText } from "../contract/errors.js";

/** The header in which an HTTP client that is an lspmcp names its pid, for `lspmcp status` and peer liveness. */
const PEER_PID_HEADER = "lspmcp-peer-pid";

/** The path of the MCP endpoint. */
export const MCP_PATH = "/mcp";

export interface SharedHttpServerOptions {
  /**
   * A fresh MCP server for each peer; all of them share one session registry. Its tool calls
   * take their turns at `gate`, the peer's lane of the fair scheduler.
   */
  readonly createMcpServer: (gate: CallGate) => Server;
  /** Calls in flight per peer and in all (see {@link FairScheduler}). */
  readonly fairness: FairSchedulerLimits;
  /** The bearer secret every request must carry. */
  readonly token: string;
  /** The answer to `GET /lspmcp/lease` (asked afresh each time: leaseholdership can be lost). */
  readonly probe: () => unknown;
  /** The answer to `GET /lspmcp/status`, with the peer list added. */
  readonly status: () => Record<string, unknown>;
  readonly sessionIdleMs: number;
  /** Told whenever the number of peers changes. */
  readonly onPeerCount: (count: number) => void;
  readonly logger: Logger;
}

/**
 * The shared bridge's endpoint: MCP Streamable HTTP (the SDK's transport, one MCP session per
 * peer) on 127.0.0.1 at a port the OS picks, behind {@link guardRequest}, plus
 * the lease probe and the status report. Request bodies are bounded at 4 MiB (answered 413),
 * like stdin lines (CONTRACT §1).
 */
export class SharedHttpServer {
  readonly peers: PeerTable;
  /** Orders the peers' tool calls: a flooding peer waits behind its own calls. */
  readonly scheduler: FairScheduler;
  readonly #options: SharedHttpServerOptions;
  readonly #http: HttpServer;
  #port = 0;
  #accepting = true;

  constructor(options: SharedHttpServerOptions) {
    this.#options = options;
    this.peers = new PeerTable(options.sessionIdleMs, options.onPeerCount);
    this.scheduler = new FairScheduler(options.fairness);
    this.#http = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        options.logger.warn("http request failed", { error: errorText(error) });
        if (!response.headersSent) reply(response, 500, { error: "Internal error" });
        else response.destroy();
      });
    });
  }

  /** Listens on loopback; resolves with the MCP endpoint's URL. */
  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.#http.once("error", reject);
      this.#http.listen(0, "127.0.0.1", () => {
        this.#port = (this.#http.address() as AddressInfo).port;
        resolve(`http://127.0.0.1:${this.#port}${MCP_PATH}`);
      });
    });
  }

  /** False once the server takes no new peers (on either door). */
  get accepting(): boolean {
    return this.#accepting;
  }

  /** From now on a new peer is refused (503); current peers go on. */
  stopAccepting(): void {
    this.#accepting = false;
  }

  /** Ends every peer and every connection; resolves once the listener is closed. */
  async close(): Promise<void> {
    this.#accepting = false;
    await this.peers.endAll();
    await new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      this.#http.closeAllConnections();
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = guardRequest(request, this.#port, this.#options.token);
    if (refusal) return reply(response, refusal.status, { error: refusal.message });
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method === "GET" && path === PROBE_PATH) return reply(response, 200, this.#options.probe());
    if (request.method === "GET" && path === STATUS_PATH) {
      return reply(response, 200, { ...this.#options.status(), peers: this.peers.list(), calls: this.scheduler.stats() });
    }
    if (path !== MCP_PATH) return reply(response, 404, { error: "Not found" });

    let body: unknown;
    if (request.method === "POST") {
      const read = await readJsonBody(request);
      // The connection is closed after a refusal: the rest of an oversized body is never read.
      if (read.kind === "too-large") return reply(response, 413, rpcError(-32000, "Request body exceeds 4 MiB"), true);
      if (read.kind === "not-json") return reply(response, 400, rpcError(-32700, "Parse error: the body is not JSON"));
      body = read.value;
    }
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const peer = this.peers.get(sessionId);
      // A socket peer's session is not reachable over HTTP.
      if (!peer?.handle) return reply(response, 404, rpcError(-32001, "Session not found"));
      return this.#serve(peer, peer.handle, request, response, body);
    }
    if (request.method !== "POST") return reply(response, 400, rpcError(-32000, "Bad Request: Mcp-Session-Id header is required"));
    if (!this.#accepting) return reply(response, 503, rpcError(-32000, "Shutting down: elect a new shared server"));
    return this.#open(request, response, body);
  }

  // A request without a session: the SDK's transport accepts only an initialize here and answers
  // anything else itself. The peer exists from the moment the SDK hands out its session id.
  async #open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const lane = this.scheduler.lane();
    const server = this.#options.createMcpServer(lane);
    let peer: Peer | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Event-stream answers, not JSON: the SDK's JSON mode (1.32) keeps a map entry per answered
      // request for the session's whole life (typescript-sdk issue #2559), which a long-lived
      // shared server cannot afford.
      onsessioninitialized: (id) => {
        const now = Date.now();
        peer = {
          sessionId: id,
          door: "http",
          peerPid: peerPid(request),
          connectedAt: now,
          lastActivity: now,
          requests: 1,
          inFlight: 1,
          streams: 0,
          handle: (req, res, parsed) => transport.handleRequest(req, res, parsed),
          end: () => transport.close(),
        };
        this.peers.add(peer);
      },
    });
    server.onclose = () => {
      lane.close();
      if (peer) this.peers.remove(peer.sessionId);
    };
    await server.connect(transport);
    response.once("close", () => {
      if (peer) requestEnded(peer);
    });
    await transport.handleRequest(request, response, body);
    if (!peer) await server.close();
  }

  async #serve(peer: Peer, handle: NonNullable<Peer["handle"]>, request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    if (request.method === "GET") {
      peer.streams++;
      response.once("close", () => {
        peer.streams--;
        peer.lastActivity = Date.now();
        // An attached lspmcp holds its event stream for as long as it lives: the stream's end is
        // the peer's end, even when the process was killed and never said goodbye.
        if (peer.streams === 0 && peer.peerPid !== null) peer.end().catch(() => {});
      });
    } else {
      peer.requests++;
      peer.inFlight++;
      response.once("close", () => requestEnded(peer));
    }
    await handle(request, response, body);
  }
}

// A POST is over: the peer is idle from now unless other requests are still running.
function requestEnded(peer: Peer): void {
  peer.inFlight--;
  peer.lastActivity = Date.now();
}

function peerPid(request: IncomingMessage): number | null {
  const value = request.headers[PEER_PID_HEADER];
  return typeof value === "string" && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : null;
}

function rpcError(code: number, message: string): unknown {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

function reply(response: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...(close ? { connection: "close" } : {}) });
  response.end(text);
}
