import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CancellationTokenSource, createMessageConnection, type MessageConnection, SocketMessageReader, SocketMessageWriter } from "vscode-jsonrpc/node";
import { ProtocolRequestType } from "vscode-languageserver-protocol";
import { BridgeError, errorText } from "../../contract/errors.js";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";

interface InitializeApiSessionParams {
  readonly pipe: string;
}
interface InitializeApiSessionResult {
  readonly sessionId: string;
  readonly pipe: string;
}

/** TypeScript 7's request that opens an API session on a Unix socket of the client's choosing. */
const InitializeApiSessionRequest = new ProtocolRequestType<InitializeApiSessionParams, InitializeApiSessionResult, never, void, void>(
  "custom/initializeAPISession",
);

/**
 * TypeScript 7's API session on one server: JSON-RPC, framed as LSP, over the Unix socket the
 * server listens on once asked (`custom/initializeAPISession`). It shares the server's projects
 * and the changes it was told of, and answers a whole program's diagnostics in one message. The
 * socket lives in a private temporary folder of the bridge's own, removed when the session ends;
 * the session ends with its server's connection. The server serves it itself: no process is
 * added to the server's tree.
 */
export class ApiSession {
  private closed = false;

  private constructor(
    private readonly connection: MessageConnection,
    private readonly socket: Socket,
    private readonly folder: string,
  ) {
    socket.once("close", () => this.close());
  }

  /** Opens the session on `link`'s server; throws (and leaves nothing behind) when it cannot. */
  static async open(link: ServerLink, options: RequestOptions): Promise<ApiSession> {
    const folder = mkdtempSync(join(tmpdir(), "lspmcp-api-"));
    let socket: Socket | undefined;
    try {
      const pipe = join(folder, "api.sock");
      const answer = await link.request(InitializeApiSessionRequest, { pipe }, options);
      if (answer?.pipe !== pipe) throw new Error(`the server listens on ${String(answer?.pipe)}, not on the socket asked`);
      const connecting = createConnection(pipe);
      socket = connecting;
      await within(new Promise<void>((resolve, reject) => connecting.once("connect", resolve).once("error", reject)), options, "connect", () => {});
      const connection = createMessageConnection(new SocketMessageReader(connecting), new SocketMessageWriter(connecting));
      connection.listen();
      const session = new ApiSession(connection, connecting, folder);
      const stopListening = link.onClose(() => session.close());
      connecting.once("close", stopListening);
      await session.request("initialize", null, options);
      return session;
    } catch (error) {
      socket?.destroy();
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** One request, bounded by the call's deadline and signal; an error answer, a closed socket or the deadline rejects it. */
  request<R>(method: string, params: unknown, options: RequestOptions): Promise<R> {
    if (this.closed) return Promise.reject(new Error("the API session is closed"));
    const cancel = new CancellationTokenSource();
    const asked = this.connection.sendRequest<R>(method, params, cancel.token);
    return within(asked, options, method, () => cancel.cancel()).finally(() => cancel.dispose());
  }

  /** Ends the session: the connection closed, the socket's folder removed. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.dispose();
    this.socket.destroy();
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/**
 * Per server connection, its API session once opened; null once the server said it has none (an
 * unknown request), so that it is not asked again.
 */
const sessions = new WeakMap<ServerLink, Promise<ApiSession | null>>();

/**
 * `link`'s API session, opened on first use. Null when the server has none; any other failure
 * rejects, and the next call tries again.
 */
export function apiSessionOf(link: ServerLink, options: RequestOptions): Promise<ApiSession | null> {
  const known = sessions.get(link);
  if (known) {
    return known.then((session) => {
      if (session === null || !session.isClosed) return session;
      sessions.delete(link);
      return apiSessionOf(link, options);
    });
  }
  const opening = ApiSession.open(link, options).catch((error: unknown) => {
    if (error instanceof BridgeError && error.code === "NotSupported") return null;
    sessions.delete(link);
    throw error;
  });
  sessions.set(link, opening);
  return opening;
}

/** `work`, or a rejection once the deadline passes or the signal aborts (`onGiveUp` then stops the work). */
function within<T>(work: Promise<T>, options: RequestOptions, what: string, onGiveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const giveUp = (reason: string): void => {
      onGiveUp();
      reject(new BridgeError("Timeout", `the API session's ${what} ${reason}`, { cancelled: reason !== "passed its deadline" }));
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
        reject(error instanceof BridgeError ? error : new Error(`the API session's ${what} failed: ${errorText(error)}`));
      },
    );
  });
}
