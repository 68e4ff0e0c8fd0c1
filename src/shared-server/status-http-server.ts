import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorText } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import { PROBE_PATH, STATUS_PATH } from "../sharing/probe-lease.js";
import { guardRequest } from "./request-guard.js";

/**
 * What a client may hold of the endpoint: its callers are lspmcp processes on this host, which
 * send a request's headers at once, so a connection that has not sent them within a few seconds,
 * or one past the cap, is closed (checked every second: Node's own check runs every 30 s).
 */
export const STATUS_HEADERS_TIMEOUT_MS = 5000;
const STATUS_REQUEST_TIMEOUT_MS = 10_000;
export const STATUS_MAX_CONNECTIONS = 64;

interface StatusHttpServerOptions {
  /** The bearer secret every request must carry. */
  readonly token: string;
  /** The answer to `GET /lspmcp/lease` (asked afresh each time: leaseholdership can be lost). */
  readonly probe: () => unknown;
  /** The answer to `GET /lspmcp/status`. */
  readonly status: () => unknown;
  readonly logger: Logger;
}

/**
 * The shared server's endpoint for readers: on 127.0.0.1 at a port the OS picks, behind
 * {@link guardRequest}, it answers the lease probe (`GET /lspmcp/lease`, for an election) and the
 * status report (`GET /lspmcp/status`, for `lspmcp status`), and nothing else. MCP is not
 * spoken here: attached lspmcp processes come in through the peer socket.
 */
export class StatusHttpServer {
  readonly #options: StatusHttpServerOptions;
  readonly #http: HttpServer;
  #port = 0;

  constructor(options: StatusHttpServerOptions) {
    this.#options = options;
    const limits = { headersTimeout: STATUS_HEADERS_TIMEOUT_MS, requestTimeout: STATUS_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 };
    this.#http = createServer(limits, (request, response) => {
      try {
        this.#handle(request, response);
      } catch (error) {
        options.logger.warn("http request failed", { error: errorText(error) });
        if (!response.headersSent) reply(response, 500, { error: "Internal error" });
        else response.destroy();
      }
    });
    this.#http.maxConnections = STATUS_MAX_CONNECTIONS;
  }

  /** Listens on loopback; resolves with the server's URL (`http://127.0.0.1:PORT`). */
  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.#http.once("error", reject);
      this.#http.listen(0, "127.0.0.1", () => {
        this.#port = (this.#http.address() as AddressInfo).port;
        resolve(`http://127.0.0.1:${this.#port}`);
      });
    });
  }

  /** Ends every connection; resolves once the listener is closed. */
  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      this.#http.closeAllConnections();
    });
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const refusal = guardRequest(request, this.#port, this.#options.token);
    if (refusal) return reply(response, refusal.status, { error: refusal.message });
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== PROBE_PATH && path !== STATUS_PATH) return reply(response, 404, { error: "Not found" });
    if (request.method !== "GET") return reply(response, 405, { error: "Method not allowed" });
    return reply(response, 200, path === PROBE_PATH ? this.#options.probe() : this.#options.status());
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
