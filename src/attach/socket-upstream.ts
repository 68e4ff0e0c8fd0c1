import { createConnection, type Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { helloMessage } from "../mcp/socket-hello.js";

/** What an attached lspmcp's messages go to: the shared server's socket, or sessions of its own. */
export interface Upstream {
  /** Sends one message. A lost upstream drops it; the forwarder knows what to re-send. */
  send(message: JSONRPCMessage): void;
  /** Ends the link; no loss is reported for it. */
  close(): Promise<void>;
}

/** Receives each message of an upstream as its JSON text (one line, terminator excluded). */
export type LineHandler = (line: string) => void;

/**
 * An attached lspmcp's link to the shared server: one connection to its peer socket, opened with
 * the hello (the lease's token and this pid), then newline-delimited JSON-RPC both ways, one
 * write per message. The server's lines are passed on as text, not parsed here. The connection's
 * end, unless {@link close} ended it, is the server's loss (`onLost`, once).
 */
export class SocketUpstream implements Upstream {
  readonly #socket: Socket;
  #closed = false;

  private constructor(socket: Socket, onLine: LineHandler, onLost: (reason: string) => void) {
    this.#socket = socket;
    const decoder = new StringDecoder("utf8");
    let pending = "";
    socket.on("data", (chunk: Buffer) => {
      pending += decoder.write(chunk);
      let from = 0;
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n", from)) {
        const line = pending.slice(from, newline);
        from = newline + 1;
        if (line.length > 0) onLine(line);
      }
      pending = pending.slice(from);
    });
    socket.on("error", () => {});
    socket.once("close", () => {
      if (!this.#closed) onLost("the shared server closed the connection");
    });
  }

  /** Connects to `path` and says hello; rejects when nothing listens there. */
  static connect(path: string, token: string, onLine: LineHandler, onLost: (reason: string) => void): Promise<SocketUpstream> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(path);
      const failed = (error: Error): void =>
        reject(new Error(`cannot reach the shared server's socket: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      socket.once("error", failed);
      socket.once("connect", () => {
        socket.off("error", failed);
        const upstream = new SocketUpstream(socket, onLine, onLost);
        upstream.send(helloMessage(token, process.pid));
        resolve(upstream);
      });
    });
  }

  send(message: JSONRPCMessage): void {
    if (!this.#socket.destroyed) this.#socket.write(JSON.stringify(message) + "\n");
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#socket.destroy();
  }
}
