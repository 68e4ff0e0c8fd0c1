import { pathToFileURL } from "node:url";
import {
  CancellationTokenSource,
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node";
import {
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  ShutdownRequest,
  type InitializeResult,
  type ProtocolRequestType,
  type ProtocolRequestType0,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import type { Readable, Writable } from "node:stream";
import { BridgeError } from "../contract/errors.js";
import type { PositionEncoding } from "../contract/positions.js";
import { CLIENT_CAPABILITIES } from "./client-capabilities.js";
import type { Deadline } from "./deadline.js";
import { DocumentSync } from "./document-sync.js";
import { DynamicRegistrations } from "./dynamic-registrations.js";
import { ProgressTracker } from "./progress-tracker.js";
import { PushDiagnosticsStore } from "./push-diagnostics-store.js";
import { handleServerRequests } from "./server-requests.js";

export interface LspClientOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly rootPath: string;
  readonly workspaceName: string;
  readonly initializationOptions: Readonly<Record<string, unknown>>;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly log: (line: string) => void;
}

/** Something a caller may pass to give up on a request early (an MCP cancellation). */
export interface RequestOptions {
  readonly deadline: Deadline;
  readonly signal?: AbortSignal;
}

/**
 * The client side of one LSP connection: initialize, typed requests with deadlines and
 * cancellation, document sync, and the state (diagnostics, progress, registrations) that the
 * server pushes. It knows nothing of processes: it is handed the server's stdio.
 */
export class LspClient {
  readonly pushDiagnostics = new PushDiagnosticsStore();
  readonly progress = new ProgressTracker();
  readonly registrations = new DynamicRegistrations();
  readonly documents: DocumentSync;
  private closed = false;
  private readonly closeListeners = new Set<() => void>();
  private initializeResult: InitializeResult | null = null;

  private constructor(
    private readonly connection: MessageConnection,
    private readonly options: LspClientOptions,
  ) {
    this.documents = new DocumentSync(connection, () => this.pushDiagnostics.currentSequence());
    connection.onClose(() => this.markClosed());
  }

  /** Connects and performs `initialize` + `initialized` within the deadline. */
  static async start(options: LspClientOptions, deadline: Deadline): Promise<LspClient> {
    const connection = createMessageConnection(
      new StreamMessageReader(options.input),
      new StreamMessageWriter(options.output),
    );
    const client = new LspClient(connection, options);
    const rootUri = pathToFileURL(options.rootPath).href;
    handleServerRequests(connection, {
      settings: options.settings,
      workspaceFolders: [{ uri: rootUri, name: options.workspaceName }],
      registrations: client.registrations,
      progress: client.progress,
      pushDiagnostics: client.pushDiagnostics,
      log: options.log,
    });
    // A broken pipe to a dead server must not crash the bridge; the exit is reported elsewhere.
    connection.onError(([error]) => options.log(`jsonrpc: ${error.message}`));
    connection.listen();
    client.initializeResult = await client.request(
      InitializeRequest.type,
      {
        processId: process.pid,
        clientInfo: { name: "lspmcp" },
        locale: "en",
        rootPath: options.rootPath,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: options.workspaceName }],
        capabilities: CLIENT_CAPABILITIES,
        initializationOptions: options.initializationOptions,
      },
      { deadline },
    );
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  get capabilities(): ServerCapabilities {
    return this.initializeResult?.capabilities ?? {};
  }

  get serverInfo(): InitializeResult["serverInfo"] {
    return this.initializeResult?.serverInfo;
  }

  /** The negotiated position encoding; LSP's default is UTF-16. */
  get positionEncoding(): PositionEncoding {
    const chosen = this.capabilities.positionEncoding;
    return chosen === "utf-8" || chosen === "utf-32" ? chosen : "utf-16";
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Called once when the connection closes (server exit, pipe gone, or shutdown). */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of [...this.closeListeners]) listener();
  }

  /**
   * Sends a typed request. On deadline or abort the request is cancelled with `$/cancelRequest`
   * and the call fails with `Timeout`; a server error or a closed connection is `ServerCrashed`
   * unless the server says the method is not there (`NotSupported`).
   */
  async request<P, R, PR, E, RO>(
    type: ProtocolRequestType<P, R, PR, E, RO> | ProtocolRequestType0<R, PR, E, RO>,
    params: P,
    { deadline, signal }: RequestOptions,
  ): Promise<R> {
    if (this.closed) throw new BridgeError("ServerCrashed", "the language server connection is closed", {});
    const cancellation = new CancellationTokenSource();
    const onAbort = (): void => cancellation.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const sent = (this.connection.sendRequest as (t: unknown, p: unknown, c: unknown) => Promise<R>)(
        type,
        params,
        cancellation.token,
      );
      const aborted = new Promise<never>((_, reject) => {
        if (!signal) return;
        const fail = (): void => reject(new BridgeError("Timeout", `${type.method} was cancelled by the client`, { cancelled: true }));
        if (signal.aborted) fail();
        else signal.addEventListener("abort", fail, { once: true });
      });
      return await deadline.race(Promise.race([sent, aborted]), type.method, onAbort);
    } catch (error) {
      throw translateRequestError(type.method, error);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      cancellation.dispose();
    }
  }

  /** LSP `shutdown` then `exit`, within the deadline; a server that does not answer is left to the supervisor. */
  async shutdown(deadline: Deadline): Promise<void> {
    if (this.closed) return;
    try {
      await this.request(ShutdownRequest.type, undefined as void, { deadline });
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // Not answering shutdown is the server's failure; the process tree is reaped regardless.
    } finally {
      this.connection.dispose();
      this.markClosed();
    }
  }

  /** Drops the connection without a handshake (the server is already gone). */
  dispose(): void {
    this.connection.dispose();
    this.markClosed();
  }
}

function translateRequestError(method: string, error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  if (error instanceof ResponseError) {
    if (error.code === -32601) {
      return new BridgeError("NotSupported", `the server does not implement ${method}`, { method });
    }
    return new BridgeError("ServerCrashed", `the server answered ${method} with error ${error.code}: ${error.message}`, {
      method,
      lsp_error_code: error.code,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new BridgeError("ServerCrashed", `${method} failed: ${message}`, { method }, { cause: error });
}
