import { relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, type MessageConnection } from "vscode-jsonrpc/node";
import {
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  ShutdownRequest,
  type FileEvent,
  type InitializeResult,
  type ProtocolRequestType,
  type ProtocolRequestType0,
  type PublishDiagnosticsParams,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import type { Readable, Writable } from "node:stream";
import { BridgeError } from "../contract/errors.js";
import type { PositionEncoding } from "../contract/positions.js";
import { DEFAULT_SETTLE_QUIET_MS } from "../contract/quiet-window.js";
import type { AdapterFactory, ServerAdapter, ServerLink } from "./server-adapter.js";
import { CLIENT_CAPABILITIES, WATCHING_CLIENT_CAPABILITIES } from "./client-capabilities.js";
import type { Deadline } from "../contract/deadline.js";
import { DocumentSync } from "./document-sync.js";
import { DynamicRegistrations } from "./dynamic-registrations.js";
import { FramedMessageWriter } from "./framed-message-writer.js";
import { cancelledByServer, translateRequestError } from "./error-translation.js";
import { FrameGuard } from "./frame-guard.js";
import { ListenerSet } from "./listener-set.js";
import { ProgressTracker } from "./progress-tracker.js";
import type { RequestOptions } from "./request-options.js";
import { PushDiagnosticsStore } from "./push-diagnostics-store.js";
import { ServerEvents } from "./server-events.js";
import { handleServerRequests } from "./server-requests.js";

interface LspClientOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly rootPath: string;
  readonly workspaceName: string;
  readonly initializationOptions: Readonly<Record<string, unknown>>;
  /**
   * The absolute folders of the project roots found under the workspace for this server (its
   * profile's `projects`), the root itself possibly among them; its adapter says how it is told.
   */
  readonly projects: readonly string[];
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * What the server really counts in positions, when that differs from what it negotiates
   * (ccls and fortls count code points, pylsp UTF-8 bytes, all while negotiating UTF-16); null
   * or absent trusts the negotiated encoding.
   */
  readonly positionEncoding?: PositionEncoding | null;
  /** The standard settle rule's quiet window after a push answer, in ms (absent: the config's default). */
  readonly settleQuietMs?: number;
  /**
   * CPU time the server's process tree has used so far, in clock ticks (null: not known); a
   * quiet window in which the tree kept computing is not quiet (see `diagnostics-settle.ts`).
   */
  readonly serverCpuTicks?: () => number | null;
  /** Makes the server's adapter: everything about the server that the LSP spec does not say. */
  readonly adapter: AdapterFactory;
  /** `max_open_documents`: the cap of {@link DocumentSync}. */
  readonly maxOpenDocuments: number;
  readonly log: (line: string) => void;
  /** Whether `log` keeps the server's informational lines (absent: it does). */
  readonly logRead?: boolean;
}

// Its own file so that the adapters' interface needs nothing of the client; its callers take it
// from here, with the client they send through.
export type { RequestOptions } from "./request-options.js";

/**
 * The client side of one LSP connection: initialize, typed requests with deadlines and
 * cancellation, document sync, and the state (diagnostics, progress, registrations) that the
 * server pushes. It knows nothing of processes (it is handed the server's stdio), nor which server
 * it talks to: what a server needs beyond the LSP spec is its {@link ServerAdapter}'s.
 */
export class LspClient implements ServerLink {
  readonly pushDiagnostics = new PushDiagnosticsStore();
  readonly progress = new ProgressTracker();
  readonly registrations = new DynamicRegistrations();
  /** Every publish, progress, registration change and the close, in arrival order. */
  readonly events = new ServerEvents();
  readonly documents: DocumentSync;
  /** This connection's adapter (made once the client's own stores exist). */
  readonly adapter: ServerAdapter;
  private closed = false;
  // Set once the bridge began `shutdown`: the session is being stopped on purpose.
  private stopping = false;
  private brokenReason: string | null = null;
  // The bridge ended the connection for a reason of its own (the server's tree passed its memory
  // cap): every call that finds the connection closed fails with this error.
  private endError: BridgeError | null = null;
  private readonly closeListeners = new ListenerSet<[]>();
  // The raw news an adapter may hear beside `events` (which carries only what bears on settling,
  // and whose listeners are all waits that end).
  private readonly logListeners = new ListenerSet<[line: string]>();
  private readonly publishListeners = new ListenerSet<[params: PublishDiagnosticsParams]>();
  private readonly answeredListeners = new ListenerSet<[method: string]>();
  private readonly progressListeners = new ListenerSet<[token: string | number, value: unknown]>();
  private initializeResult: InitializeResult | null = null;
  private pending = 0;
  private answeredAny = false;
  private resolveFirstAnswer: () => void = () => {};
  private readonly firstAnswer = new Promise<void>((resolve) => (this.resolveFirstAnswer = resolve));
  /**
   * Wall-clock time of the connection, before `initialize`: a server cannot have read a
   * workspace file before it (it learns the root in `initialize`), so a file whose mtime is older
   * than this (by more than the clock's granularity) is one the server read as it is now.
   */
  readonly connectedAtMs = Date.now();

  private constructor(
    private readonly connection: MessageConnection,
    private readonly options: LspClientOptions,
  ) {
    this.documents = new DocumentSync(connection, {
      currentSequence: () => this.pushDiagnostics.currentSequence(),
      onClosed: (uri) => this.pushDiagnostics.forget(uri),
      refusal: (method) => (this.stopping ? this.closedError(method) : null),
      maxOpen: options.maxOpenDocuments,
      onSent: () => this.events.emit({ type: "session-sync" }),
      changeByReopen: () => this.settledByPushAlone(),
    });
    connection.onClose(() => this.markClosed());
    this.adapter = options.adapter(this);
  }

  /**
   * Wires a connection onto the server's stdio and starts listening. Nothing is sent yet: the
   * caller holds the client before `initialize`, so that a server exit can end that wait too.
   */
  static connect(options: LspClientOptions): LspClient {
    // A server that breaks the framing or sends an unparsable message has left the protocol:
    // nothing it sends afterwards can be trusted, so the connection ends with the reason.
    let client: LspClient | undefined;
    const guard = new FrameGuard((reason) => client?.breakConnection(reason));
    options.input.pipe(guard);
    const reader = new StreamMessageReader(guard);
    reader.onError((error) => client?.breakConnection(`the server sent a message that is not JSON-RPC: ${error.message}`));
    const connection = createMessageConnection(reader, new FramedMessageWriter(options.output));
    client = new LspClient(connection, options);
    handleServerRequests(connection, {
      settings: options.settings,
      workspaceFolders: client.workspaceFolders(),
      registrations: client.registrations,
      progress: client.progress,
      pushDiagnostics: client.pushDiagnostics,
      events: client.events,
      log: (line) => {
        client.logListeners.emit(line);
        options.log(line);
      },
      onPublish: (params) => client.publishListeners.emit(params),
      onAnswered: (method) => client.answeredListeners.emit(method),
      onProgress: (token, value) => client.progressListeners.emit(token, value),
      onWork: () => client.markAnswered(),
      ignoredProgress: client.adapter.ignoredProgress,
    });
    // A broken pipe to a dead server must not crash the bridge; the exit is reported elsewhere.
    connection.onError(([error]) => options.log(`jsonrpc: ${error.message}`));
    connection.listen();
    return client;
  }

  /**
   * Performs `initialize` + `initialized` within the deadline, and waits there until the server's
   * adapter says it takes documents.
   */
  async initialize(deadline: Deadline): Promise<void> {
    const [folder] = this.workspaceFolders();
    this.initializeResult = await this.request(
      InitializeRequest.type,
      {
        processId: process.pid,
        clientInfo: { name: "lspmcp" },
        locale: "en",
        rootPath: this.options.rootPath,
        rootUri: folder!.uri,
        workspaceFolders: this.workspaceFolders(),
        capabilities: this.bridgeWatchesFiles ? WATCHING_CLIENT_CAPABILITIES : CLIENT_CAPABILITIES,
        initializationOptions: this.adapter.initializationOptions(this.options.initializationOptions, this.options.projects, this.options.logRead ?? true),
      },
      { deadline },
    );
    await this.connection.sendNotification(InitializedNotification.type, {});
    await this.adapter.whenReady(deadline);
  }

  /**
   * The workspace root first (it answers every file under no project root), then each project
   * root below it where the adapter takes them as folders, named after the workspace and the
   * folder ("web/packages/core").
   */
  private workspaceFolders(): { uri: string; name: string }[] {
    const { rootPath, workspaceName, projects } = this.options;
    const nested = this.adapter.projectsAsFolders ? projects.filter((folder) => folder !== rootPath) : [];
    return [rootPath, ...nested].map((folder) => ({
      uri: pathToFileURL(folder).href,
      name: folder === rootPath ? workspaceName : `${workspaceName}/${relative(rootPath, folder).split(sep).join("/")}`,
    }));
  }

  get capabilities(): ServerCapabilities {
    return this.initializeResult?.capabilities ?? {};
  }

  get serverInfo(): InitializeResult["serverInfo"] {
    return this.initializeResult?.serverInfo;
  }

  /** The server tree's CPU ticks so far, or null where the client was not told how to read them. */
  serverCpuTicks(): number | null {
    return this.options.serverCpuTicks?.() ?? null;
  }

  /** The standard settle rule's quiet window after a push answer, in ms; 0: none. */
  get settleQuietMs(): number {
    return this.options.settleQuietMs ?? DEFAULT_SETTLE_QUIET_MS;
  }

  /**
   * Whether a document's diagnostics settle by the standard rule on its pushes alone: no pull
   * (offered, registered or the adapter's own) and no complete request of a project model's.
   */
  settledByPushAlone(): boolean {
    const adapter = this.adapter;
    if (adapter.settle !== "standard" || adapter.diagnosticsByPull || adapter.projectModel) return false;
    return !this.capabilities.diagnosticProvider && this.registrations.idsFor(DocumentDiagnosticRequest.method).length === 0;
  }

  /**
   * The encoding the server's positions are counted in: the configured override where there is
   * one, else the negotiated one (LSP's default is UTF-16).
   */
  get positionEncoding(): PositionEncoding {
    if (this.options.positionEncoding) return this.options.positionEncoding;
    const chosen = this.capabilities.positionEncoding;
    return chosen === "utf-8" || chosen === "utf-32" ? chosen : "utf-16";
  }

  /**
   * Tells the server what changed on disk (`workspace/didChangeWatchedFiles`). Only meaningful
   * where the bridge watches files for the server (see {@link bridgeWatchesFiles}); the
   * notification is written in order with the requests that follow it.
   */
  async notifyWatchedFiles(changes: readonly FileEvent[]): Promise<void> {
    if (changes.length === 0) return;
    if (this.closed) throw this.closedError(DidChangeWatchedFilesNotification.method);
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [...changes] });
  }

  /** Whether the bridge, not the server, watches the server's files (its adapter says so). */
  get bridgeWatchesFiles(): boolean {
    return this.adapter.filesWatchedBy === "bridge";
  }

  /** Sends a notification the bridge needs no answer to; a connection gone meanwhile is reported elsewhere. */
  notify(method: string, params: unknown): void {
    if (this.closed) return;
    void this.connection.sendNotification(method, params).catch(() => undefined);
  }

  /** Hears every log line the server sends (`window/logMessage`, `window/showMessage`). */
  onLog(listener: (line: string) => void): () => void {
    return this.logListeners.add(listener);
  }

  /**
   * Hears every `publishDiagnostics` as the server sent it, before the client's store keeps or
   * drops it (rust-analyzer's flycheck sets are kept whatever their version).
   */
  onPublish(listener: (params: PublishDiagnosticsParams) => void): () => void {
    return this.publishListeners.add(listener);
  }

  /** Hears the method of each of the server's requests that the client has answered, once the answer is sent. */
  onAnswered(listener: (method: string) => void): () => void {
    return this.answeredListeners.add(listener);
  }

  /** Hears every `$/progress` value as the server sent it, before the client tracks it (bacon-ls's runs end with a message saying how). */
  onProgress(listener: (token: string | number, value: unknown) => void): () => void {
    return this.progressListeners.add(listener);
  }

  /**
   * Requests sent and not yet answered by the server. A request the bridge gave up on (deadline,
   * cancellation) counts until the server answers it, so 0 means the server has nothing of ours
   * left to work on.
   */
  get requestsInFlight(): number {
    return this.pending;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Why the connection was ended by the bridge because the server broke the protocol, or null. */
  get protocolViolation(): string | null {
    return this.brokenReason;
  }

  private breakConnection(reason: string): void {
    if (this.closed) return;
    this.brokenReason = reason;
    this.options.log(`protocol violation: ${reason}`);
    // Listeners first, so that a waiting request fails with this reason rather than with
    // vscode-jsonrpc's "connection got disposed".
    this.markClosed();
    this.connection.dispose();
  }

  /** Called once when the connection closes (server exit, pipe gone, or shutdown). */
  onClose(listener: () => void): () => void {
    return this.closeListeners.add(listener);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.progress.clear();
    this.markAnswered();
    this.closeListeners.emit();
    this.events.emit({ type: "close" });
  }

  /**
   * Sends a typed request. On deadline or abort the request is cancelled with `$/cancelRequest`
   * and the call fails with `Timeout`; a server error or a closed connection is `ServerCrashed`
   * unless the server says the method is not there (`NotSupported`). A server whose adapter says
   * it cancels requests itself is asked again after its own RequestCancelled, until it answers or
   * the deadline passes. However it ends, the call leaves no listener on `signal` or on the client
   * behind.
   */
  async request<P, R, PR, E, RO>(
    type: ProtocolRequestType<P, R, PR, E, RO> | ProtocolRequestType0<R, PR, E, RO>,
    params: P,
    options: RequestOptions,
  ): Promise<R> {
    for (;;) {
      try {
        return await this.requestOnce(type, params, options);
      } catch (error) {
        if (!(this.adapter.cancelsRequestsItself && cancelledByServer(error))) throw error;
      }
    }
  }

  private async requestOnce<P, R, PR, E, RO>(
    type: ProtocolRequestType<P, R, PR, E, RO> | ProtocolRequestType0<R, PR, E, RO>,
    params: P,
    { deadline, signal }: RequestOptions,
  ): Promise<R> {
    if (this.closed || this.stopping) throw this.closedError(type.method);
    if (signal?.aborted) throw new BridgeError("Timeout", `${type.method} was cancelled by the client`, { cancelled: true });
    const cancellation = new CancellationTokenSource();
    // A caller's abort and a server that dies mid-request both end the call now through `stop`
    // (the deadline through `race`); `finally` takes every listener off again, however it ended.
    let stop: (error: BridgeError) => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      stop = (error) => {
        cancellation.cancel();
        reject(error);
      };
    });
    const onAbort = (): void => stop(new BridgeError("Timeout", `${type.method} was cancelled by the client`, { cancelled: true }));
    const unsubscribeClose = this.onClose(() => stop(this.closedError(type.method)));
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const sent = (this.connection.sendRequest as (t: unknown, p: unknown, c: unknown) => Promise<R>)(type, params, cancellation.token);
      this.pending += 1;
      // Answered, refused or dropped with the connection: the server holds it no longer.
      const answered = (): void => {
        this.pending -= 1;
        if (type.method !== InitializeRequest.method) this.markAnswered();
      };
      sent.then(answered, answered);
      return await deadline.race(Promise.race([sent, stopped]), type.method, () => cancellation.cancel());
    } catch (error) {
      throw translateRequestError(type.method, error);
    } finally {
      unsubscribeClose();
      signal?.removeEventListener("abort", onAbort);
      cancellation.dispose();
    }
  }

  /**
   * Whether the server has shown its work since `initialize`: answered a request, published
   * diagnostics or begun work-done progress (or its connection ended). One that has not is still
   * booting as far as the bridge can tell (tsserver loads itself before it begins the project).
   */
  get hasAnswered(): boolean {
    return this.answeredAny;
  }

  /** Resolves once `hasAnswered` is true. */
  whenAnswered(): Promise<void> {
    return this.firstAnswer;
  }

  private markAnswered(): void {
    this.answeredAny = true;
    this.resolveFirstAnswer();
  }

  /** Whether the bridge began shutting this client down (a restart, the bridge's end, or `dispose` with an error). */
  get isStopping(): boolean {
    return this.stopping || this.endError !== null;
  }

  /**
   * The error of a call that found the connection closed during `method`: `SessionDead` (with
   * `stopped: true`) when the bridge is shutting the client down, since the caller's session was
   * stopped under it and nothing crashed; otherwise `ServerCrashed`, with the reason when the
   * server broke the protocol.
   */
  closedError(method: string): BridgeError {
    if (this.endError !== null) return this.endError;
    if (this.stopping) {
      return new BridgeError("SessionDead", `the session was stopped (restart or shutdown) during ${method}`, { method, stopped: true });
    }
    if (this.brokenReason !== null) {
      return new BridgeError("ServerCrashed", `the connection to the language server was ended during ${method}: ${this.brokenReason}`, {
        method,
        reason: this.brokenReason,
      });
    }
    return new BridgeError("ServerCrashed", `the language server went away during ${method}`, { method });
  }

  /** LSP `shutdown` then `exit`, within the deadline; a server that does not answer is left to the supervisor. */
  async shutdown(deadline: Deadline): Promise<void> {
    if (this.closed) return;
    try {
      // Sent before the client refuses new work, so that the shutdown request itself goes out.
      const answered = this.request(ShutdownRequest.type, undefined, { deadline });
      this.stopping = true;
      await answered;
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // Not answering shutdown is the server's failure; the process tree is reaped regardless.
    } finally {
      // Listeners first, so that requests still waiting fail as stopped (SessionDead) rather
      // than with vscode-jsonrpc's "connection got disposed".
      this.markClosed();
      this.connection.dispose();
    }
  }

  /**
   * Drops the connection without a handshake (the server is gone, or is being ended). With
   * `error`, calls still waiting, and later ones, fail with it instead of `ServerCrashed`.
   */
  dispose(error?: BridgeError): void {
    if (!this.closed && error !== undefined) this.endError = error;
    // Listeners first, so that waiting requests fail with that error, as in breakConnection.
    this.markClosed();
    this.connection.dispose();
  }
}
