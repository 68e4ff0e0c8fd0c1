import type { Diagnostic, ProtocolRequestType, ProtocolRequestType0, PublishDiagnosticsParams, ServerCapabilities } from "vscode-languageserver-protocol";
import type { CallScope } from "../contract/call-scope.js";
import type { Deadline } from "../contract/deadline.js";
import type { BridgeError } from "../contract/errors.js";
import type { DocumentSync } from "./document-sync.js";
import type { RequestOptions } from "./request-options.js";
import type { ServerEvents } from "./server-events.js";
import type { SettleEvent, SettleStrategy } from "./settle-state.js";

/**
 * What an adapter may use of its connection (the `LspClient` is one): nothing of the client but
 * its requests, notifications, and what the server says.
 */
export interface ServerLink {
  /** A typed request with the client's deadline, cancellation and errors. */
  request<P, R, PR, E, RO>(type: ProtocolRequestType<P, R, PR, E, RO> | ProtocolRequestType0<R, PR, E, RO>, params: P, options: RequestOptions): Promise<R>;
  /** A notification that needs no answer. */
  notify(method: string, params: unknown): void;
  /** The server's events, which an adapter may hear and add to. */
  readonly events: ServerEvents;
  /** Every log line of the server; returns the way to stop listening. */
  onLog(listener: (line: string) => void): () => void;
  /** Every `$/progress` value as sent (its end's message included), before the client tracks it. */
  onProgress(listener: (token: string | number, value: unknown) => void): () => void;
  /** The method of each of the server's requests that the client has answered, once the answer is sent. */
  onAnswered(listener: (method: string) => void): () => void;
  /** Every `publishDiagnostics` as sent, before the client keeps or drops it. */
  onPublish(listener: (params: PublishDiagnosticsParams) => void): () => void;
  onClose(listener: () => void): () => void;
  /** The error of a wait that found the connection closed during `method`. */
  closedError(method: string): BridgeError;
  readonly isClosed: boolean;
  /** The documents the client holds open on the server. */
  readonly documents: DocumentSync;
  /** What the server announced in `initialize` (empty before). */
  readonly capabilities: ServerCapabilities;
}

/** The compiler that answers a session, as `session_status`, `check`'s report and stderr name it. */
export interface CompilerReport {
  readonly name: string;
  readonly version: string;
  /** Where it comes from: the workspace's own installation, or the pinned package. */
  readonly source: "workspace" | "pinned";
  /** The compiler package's folder. */
  readonly path: string;
}

/** One file's diagnostics from the server's program, and the project that answered where the server says. */
export interface ProjectAnswer {
  readonly diagnostics: readonly Diagnostic[];
  /** The config file of the project that answered, "" for none; absent where the server does not say. */
  readonly project?: string;
}

/** What a whole-project run lends an adapter's pulls: opening a file of the run as any call opens it. */
export interface ProjectHost {
  /** The workspace root: no project config is looked for above it. */
  readonly root: string;
  /** A fresh deadline for one file's work (`request_timeout_ms` from now). */
  fileDeadline(): Deadline;
  /**
   * Opens `path` (absolute) from the disk, or the preview's text, as a call opens a file, and
   * holds it open on `scope`: the cap never closes it while the scope lasts.
   */
  open(path: string, options: RequestOptions, scope: CallScope): Promise<void>;
}

/**
 * The pulls of one whole-project run: files answered from their own project without each being
 * opened (`ServerAdapter.projectPulls`).
 */
export interface ProjectPulls {
  /** Of `paths` (absolute), those that `pull` answers; the rest are answered file by file. */
  place(paths: readonly string[], options: RequestOptions): Promise<ReadonlySet<string>>;
  /** A placed file's diagnostics from its own project (`uri`: its file URI, made once by the caller). */
  pull(path: string, uri: string, options: RequestOptions): Promise<ProjectAnswer>;
  /** Ends the run: lets go of what it held; `close` (a `check`): also closes the documents it opened to load projects. */
  end(close: boolean): Promise<void>;
}

/** The texts of the files whose answers the bridge keeps, as the server's program last took them in. */
export interface KeptTexts {
  /** The text `path`'s kept answer was given with, when there is one. */
  keptText(path: string): string | undefined;
  /**
   * What the queries noted of a file when its last change was told, theirs alone to read; kept
   * with the answers (a preview sets both aside together).
   */
  readonly notes: Map<string, unknown>;
}

/**
 * What the bridge asks a server's program about a changed file, to keep the answers no change
 * reaches: its declaration shape before the server hears of the change and after (equal shapes:
 * the change reaches no other file), and the files that import it. Null shape: it cannot be
 * told, so every file may be reached.
 */
export interface ChangeQueries {
  shapeBefore(path: string): Promise<string | null>;
  /** `text`: what the server now holds of the file when that is not the disk's (a preview's). */
  shapeAfter(path: string, text?: string): Promise<string | null>;
  importers(path: string): Promise<string[]>;
}

/** A settle decision that an adapter carries out on its server (the rule's other one is a pull). */
export type SettleAction = "barrier" | "flycheck" | "cargo-run";

/**
 * Everything about one language server that the LSP spec does not say, in one place: the client,
 * the sessions and the pipeline ask this and never which server they talk to. A server that needs
 * nothing beyond the spec gets the standard adapter; a profile picks another with `adapter = "…"`.
 * One is made per connection ({@link AdapterFactory}), before `initialize`, so it may keep what
 * it hears of its server.
 */
export interface ServerAdapter {
  /** The profile's `adapter` value that picks it. */
  readonly name: string;
  /** The strategy the settle rule (`settle-rule.ts`) runs for this server's diagnostics. */
  readonly settle: SettleStrategy;
  /** Work-done progress tokens that bear neither on diagnostics nor on loading: never tracked. */
  readonly ignoredProgress: ReadonlySet<string>;
  /**
   * Who tells the server of changes on disk: "server" (its own watchers) or "bridge" (the client
   * declares file watching, and the bridge sends what it finds changed before the server answers).
   */
  readonly filesWatchedBy: "server" | "bridge";
  /**
   * With `filesWatchedBy` "bridge": the files (absolute paths) whose changes on disk the bridge
   * looks for and tells the server of; nothing for a server that watches its own.
   */
  readonly watchedFiles: RegExp;
  /**
   * Whether one pull answers a file's diagnostics completely, opened or not, so that a whole
   * project is answered without a file opened and a document needs no settle wait (TypeScript
   * 7). tsserver's project path is found by the command it offers.
   */
  readonly answersManyFiles: boolean;
  /**
   * Whether the server's diagnostics are read by pull alone, advertised or not: its pushes are
   * neither awaited nor merged (pyrefly: its push can be lost, docs/adapters.md).
   */
  readonly diagnosticsByPull: boolean;
  /**
   * Whether the server answers requests with RequestCancelled of its own accord (pyrefly, while a
   * change waits in its queue or its recheck takes the state over): the client sends such a
   * request again until it is answered or its deadline passes.
   */
  readonly cancelsRequestsItself: boolean;
  /**
   * Whether every change of the server's open documents (an open, a close) cancels all its work in
   * flight, to be done over (ty: "cancelled by salsa"): a run of many files then opens and closes
   * documents only between batches, never while a batch is being answered (`runFileBatches`).
   */
  readonly documentChangesCancelWork: boolean;
  /**
   * Whether the server computes in the background on work no open file's diagnostics wait for
   * (ccls's index), so that its CPU use says nothing of a publish to come: the standard rule's
   * quiet window then ends on silence alone, instead of starting again while the tree is busy.
   */
  readonly busyWithoutPublishing: boolean;
  /**
   * Whether a change on disk is taken in by starting the server afresh rather than by telling it
   * (`workspace/didChangeWatchedFiles`), with `filesWatchedBy` "bridge": a server whose answers
   * after the notification can come from its old state, with no sound signal of when they stop
   * doing so (pyrefly: docs/contract-notes.md, "pyrefly after a disk change").
   */
  readonly diskChangesNeedRestart: boolean;
  /**
   * The diagnostic sources that read only the files on disk, never an open document's text
   * (rust-analyzer's flycheck, `cargo check`): a preview of changes cannot count their findings
   * (CONTRACT §4.4, `not_previewed`).
   */
  readonly diskOnlySources: ReadonlySet<string>;
  /**
   * Whether the project roots found for the server (its profile's `projects`) are sent as
   * workspace folders beside the workspace root, each file then answered under the folder that
   * holds it most closely (pyright, basedpyright, ty); false for a server told of them otherwise.
   */
  readonly projectsAsFolders: boolean;
  /**
   * The `initializationOptions` sent: the profile's, with what the server needs to be correct
   * merged over them; `projects` are the absolute folders of the project roots found (none when
   * the profile names no `projects`); `logRead`: whether the server's informational log lines
   * are read (the bridge logs at debug), else a server may be asked for its problems only.
   */
  initializationOptions(configured: Readonly<Record<string, unknown>>, projects: readonly string[], logRead: boolean): Record<string, unknown>;
  /**
   * Resolves once the server, after `initialized`, takes documents; the close of the connection
   * or the deadline fails it.
   */
  whenReady(deadline: Deadline): Promise<void>;
  /** What the adapter knows of `uri` when a settle wait starts, told to the rule as events. */
  startingEvents(uri: string): SettleEvent[];
  /**
   * Why the server did not check a document at all, when `diagnostic` is its own notice saying so
   * (no finding about the code: the file is reported as not checked); null for any other.
   */
  notChecked(diagnostic: { readonly source: string | null; readonly message: string }): string | null;
  /**
   * Why the server cannot check a document that a preview creates at `path` (absolute) and that is
   * not on disk, when it takes what a file belongs to from the disk alone and says nothing of a
   * document it could not place (gopls: a package in a folder with no Go file yet); null: it
   * checks such a document. The file is then reported as not checked, never as clean.
   */
  createdNotChecked(path: string): string | null;
  /**
   * How an open document's diagnostics are read when one request answers them completely
   * (TypeScript's servers); null: by the settle rule, from the server's pushes and pulls.
   */
  readonly documentDiagnostics: ((uri: string, options: RequestOptions) => Promise<Diagnostic[]>) | null;
  /**
   * Waits until navigation for the open document `uri` is answered from its whole project, when
   * the server has its own signal of that (tsserver); null: its diagnostics have settled.
   */
  readonly awaitProjectLoaded: ((uri: string, options: RequestOptions) => Promise<void>) | null;
  /**
   * Whole-project answers of many files without each being opened, for a server whose files
   * the bridge watches; null: every file is answered file by file.
   */
  readonly projectPulls: ((host: ProjectHost) => ProjectPulls) | null;
  /** The queries that let a change on disk keep the answers it cannot reach; null: every kept answer is dropped at a change. */
  readonly changeQueries: ((kept: KeptTexts, options: RequestOptions) => ChangeQueries) | null;
  /**
   * After `initialize`: the version of the compiler that really answers, when the server runs
   * one it was given (typescript-language-server's tsserver); throws `ServerVersionMismatch`
   * unless it is `compiler`'s. Null: the server's own version is all there is to check.
   */
  readonly confirmCompiler: ((compiler: CompilerReport, deadline: Deadline) => Promise<string>) | null;
  /**
   * Carries out `action` for a settle wait of document `uri`. Resolves to the event that tells the
   * rule it is done, or null when the rule hears of it through the connection's events.
   */
  perform(action: SettleAction, options: RequestOptions, uri: string): Promise<SettleEvent | null>;
}

/** Makes a server's adapter for one connection. */
export type AdapterFactory = (link: ServerLink) => ServerAdapter;
