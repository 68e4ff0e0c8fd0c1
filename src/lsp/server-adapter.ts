import type { ProtocolRequestType, ProtocolRequestType0, PublishDiagnosticsParams, ServerCapabilities } from "vscode-languageserver-protocol";
import type { Deadline } from "../contract/deadline.js";
import type { BridgeError } from "../contract/errors.js";
import type { DocumentSync } from "./document-sync.js";
import type { RequestOptions } from "./request-options.js";
import type { ServerEvents } from "./server-events.js";
import type { ProjectModel } from "./project-model.js";
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

/** A settle decision that an adapter carries out on its server (the rule's other one is a pull). */
export type SettleAction = "barrier" | "flycheck" | "build-run";

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
   * Whether the server's diagnostics are read by pull alone, advertised or not: its pushes are
   * neither awaited nor merged (pyrefly: its push can be lost, docs/contributors/adapters.md).
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
   * doing so (pyrefly: docs/contributors/contract-notes.md, "pyrefly after a disk change").
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
   * How the server answers the files of a whole project from its own program, for a server that
   * has such a model of a project (TypeScript's); null: every file is answered on its own, by
   * the settle rule.
   */
  readonly projectModel: ProjectModel | null;
  /**
   * Carries out `action` for a settle wait of document `uri`. Resolves to the event that tells the
   * rule it is done, or null when the rule hears of it through the connection's events.
   */
  perform(action: SettleAction, options: RequestOptions, uri: string): Promise<SettleEvent | null>;
}

/** Makes a server's adapter for one connection. */
export type AdapterFactory = (link: ServerLink) => ServerAdapter;
