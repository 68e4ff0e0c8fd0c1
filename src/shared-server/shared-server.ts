import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Logger } from "../contract/logger.js";
import type { CallAdmission } from "../mcp/call-tool.js";
import { FairScheduler, type FairSchedulerLimits } from "./fair-scheduler.js";
import { PeerSocketServer } from "./peer-socket-server.js";
import { PeerTable } from "./peer-table.js";
import { StatusHttpServer } from "./status-http-server.js";

interface SharedServerOptions {
  /**
   * A fresh MCP server for each peer; all of them share one session registry. Its tool calls
   * take their turns at `admission`, the peer's queue of the fair scheduler.
   */
  readonly createMcpServer: (admission: CallAdmission) => Server;
  /** Calls in flight per peer and in all (see {@link FairScheduler}). */
  readonly fairness: FairSchedulerLimits;
  /** The lease's secret: the peer socket's hello and every HTTP request must carry it. */
  readonly token: string;
  /** The answer to the lease probe (asked afresh each time: leaseholdership can be lost). */
  readonly probe: () => unknown;
  /** The server's own part of its status report; the peers and the calls are added here. */
  readonly status: () => Record<string, unknown>;
  /** Told whenever the number of peers changes. */
  readonly onPeerCount: (count: number) => void;
  readonly logger: Logger;
}

/**
 * The shared server's one owner of its peers, its fair scheduler and whether it takes new peers,
 * behind its two endpoints: the peer socket, through which attached lspmcp processes come in (each a
 * peer with a queue of the scheduler), and the loopback HTTP endpoint that answers the lease probe and
 * `lspmcp status`. The election, the lease and the lifetime are its caller's.
 */
export class SharedServer {
  readonly peers: PeerTable;
  /** Orders the peers' tool calls: a flooding peer waits behind its own calls. */
  readonly scheduler: FairScheduler;
  readonly #socket: PeerSocketServer;
  readonly #http: StatusHttpServer;
  #accepting = true;

  constructor(options: SharedServerOptions) {
    this.peers = new PeerTable(options.onPeerCount);
    this.scheduler = new FairScheduler(options.fairness);
    this.#socket = new PeerSocketServer({
      createMcpServer: options.createMcpServer,
      queue: () => this.scheduler.queue(),
      token: options.token,
      peers: this.peers,
      accepting: () => this.#accepting,
      logger: options.logger,
    });
    this.#http = new StatusHttpServer({
      token: options.token,
      probe: options.probe,
      status: () => ({ ...options.status(), peers: this.peers.list(), calls: this.scheduler.stats() }),
      logger: options.logger,
    });
  }

  /** Opens both endpoints: the peer socket at `socketPath`; resolves with the HTTP endpoint's URL. */
  async listen(socketPath: string): Promise<string> {
    const url = await this.#http.listen();
    await this.#socket.listen(socketPath);
    return url;
  }

  /** From now on a new peer is refused; current peers go on. */
  stopAccepting(): void {
    this.#accepting = false;
  }

  /** Ends every peer and closes both endpoints. */
  async close(): Promise<void> {
    this.#accepting = false;
    await this.peers.endAll();
    await this.#http.close();
    await this.#socket.close();
  }
}
