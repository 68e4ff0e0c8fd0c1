import { createConnection, type Socket } from "node:net";
import { CancellationTokenSource, createMessageConnection, type MessageConnection, SocketMessageReader, SocketMessageWriter } from "vscode-jsonrpc/node";
import { BridgeError, errorText } from "../contract/errors.js";
import type { RequestOptions } from "./request-options.js";

/**
 * A JSON-RPC peer on a Unix socket that a server listens on beside its LSP connection (framed as
 * LSP), asked requests only: each bounded by the call's deadline and signal, cancelled when the
 * call gives up. Closing it, or the socket closing, ends every request in flight.
 */
export class SocketPeer {
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  private constructor(
    private readonly connection: MessageConnection,
    private readonly socket: Socket,
  ) {
    socket.once("close", () => this.close());
  }

  /** Connects to the socket at `path`; rejects when it does not connect within the deadline. */
  static async connect(path: string, options: RequestOptions): Promise<SocketPeer> {
    const socket = createConnection(path);
    try {
      await within(new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject)), options, `connect to ${path}`, () => {});
    } catch (error) {
      socket.destroy();
      throw error;
    }
    const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    connection.listen();
    return new SocketPeer(connection, socket);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** One request; an error answer, the socket's close, the deadline or the signal rejects it. */
  request<R>(method: string, params: unknown, options: RequestOptions): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`${method}: the socket is closed`));
    const cancel = new CancellationTokenSource();
    const asked = this.connection.sendRequest<R>(method, params, cancel.token);
    return within(asked, options, method, () => cancel.cancel()).finally(() => cancel.dispose());
  }

  /** Called once, when the peer closes (by `close` or the socket's end). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.dispose();
    this.socket.destroy();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

/** `work`, or a rejection once the deadline passes or the signal aborts (`onGiveUp` then stops the work). */
function within<T>(work: Promise<T>, options: RequestOptions, what: string, onGiveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const giveUp = (reason: string): void => {
      onGiveUp();
      reject(new BridgeError("Timeout", `${what} ${reason}`, { cancelled: reason !== "passed its deadline" }));
    };
    const stopTimer = options.deadline.onExpire(() => giveUp("passed its deadline"));
    const onAbort = (): void => giveUp("was cancelled");
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        stopTimer();
        options.signal?.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        stopTimer();
        options.signal?.removeEventListener("abort", onAbort);
        reject(error instanceof BridgeError ? error : new Error(`${what} failed: ${errorText(error)}`));
      },
    );
  });
}
