import { DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification } from "vscode-languageserver-protocol";
import type { MessageConnection, NotificationType } from "vscode-jsonrpc/node";
import { BridgeError, errorText } from "../contract/errors.js";

/** A document as the server knows it. */
export interface OpenDocument {
  readonly uri: string;
  readonly languageId: string;
  readonly version: number;
  readonly text: string;
  /** The push-store sequence just before this version was sent: later publishes describe it. */
  readonly sentAfterSequence: number;
}

interface DocumentSyncOptions {
  /** The push-store sequence now (see {@link OpenDocument.sentAfterSequence}). */
  readonly currentSequence: () => number;
  /** Told when a document was closed, so that what the server pushed for it is dropped. */
  readonly onClosed: (uri: string) => void;
  /** Why no document may be sent now (the client is being shut down), or null. */
  readonly refusal?: (method: string) => BridgeError | null;
  /** At most this many documents stay open; past it the least recently used one is closed. */
  readonly maxOpen: number;
  /** Told after each didOpen, didChange or didClose went out (a wait under the barrier strategy hears of it). */
  readonly onSent?: () => void;
  /**
   * Whether a changed text is sent as a close and a reopen rather than a didChange: for a server
   * settled by its pushes alone, which may say nothing after a change that leaves a file's
   * findings as they were (typescript-language-server publishes a kind only when it differs from
   * the last), while every server publishes for a document it has just opened.
   */
  readonly changeByReopen?: () => boolean;
}

/**
 * Keeps the server's view of each file equal to the bytes on disk at call time: didOpen the
 * first time, a full didChange with the next version when the text changed (or a didClose and a
 * didOpen, see {@link DocumentSyncOptions.changeByReopen}), nothing otherwise.
 *
 * At most `maxOpen` documents stay open: opening one more closes (didClose) the least recently
 * used document that no call holds, and it is opened again from the caller's text when next
 * asked for. A held document (see {@link DocumentSync.hold}) is never closed under a call, so
 * while more than `maxOpen` are held at once the cap is exceeded until they are released.
 * Versions of a URI only grow, across a close and a reopen too, so that a late publish for an
 * earlier life of the document can never pass for the current one.
 */
export class DocumentSync {
  // Map order is recency order: a used document is moved to the end.
  private readonly documents = new Map<string, OpenDocument>();
  private readonly holds = new Map<string, number>();
  // Opens whose didOpen is not sent yet (room is being made first): a second sync of the same
  // document waits for it, so that no request about the document reaches the server before it.
  private readonly opening = new Map<string, Promise<void>>();
  // The last version of each closed URI, bounded by the files of the workspace.
  private readonly closedVersions = new Map<string, number>();
  // Every didOpen, didChange and didClose sent gets the next number; the last one per URI is kept.
  private sent = 0;
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly connection: MessageConnection,
    private readonly options: DocumentSyncOptions,
  ) {}

  /** Sends what is needed so the server has `text` for `uri`; returns the document as sent. */
  async sync(uri: string, languageId: string, text: string): Promise<OpenDocument> {
    const refused = this.options.refusal?.("document sync");
    if (refused) throw refused;
    const opening = this.opening.get(uri);
    // Its failure is the opening call's to report; this one looks again at what is known.
    if (opening) await opening.catch(() => {});
    const known = this.documents.get(uri);
    if (known) this.touch(uri, known);
    if (known && known.text === text) return known;
    const sentAfterSequence = this.options.currentSequence();
    const reopen = known !== undefined && this.options.changeByReopen?.() === true;
    if (!known || reopen) {
      const version = (known?.version ?? this.closedVersions.get(uri) ?? 0) + 1;
      this.closedVersions.delete(uri);
      const document = { uri, languageId, version, text, sentAfterSequence };
      // The new text is the document's from now on, so that a second sync of it waits for this
      // open rather than opening it again.
      this.documents.set(uri, document);
      const open = (async () => {
        if (reopen) {
          this.options.onClosed(uri);
          await this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        }
        // Room is made first, so that the server never holds more than the cap either.
        await this.evictPastCap(uri);
        await this.notify(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
      })();
      this.opening.set(uri, open);
      try {
        await open;
      } finally {
        if (this.opening.get(uri) === open) this.opening.delete(uri);
      }
      return document;
    }
    const document = { ...known, version: known.version + 1, text, sentAfterSequence };
    this.documents.set(uri, document);
    // A change event without a range replaces the whole text; servers accept it in any sync mode.
    await this.notify(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: document.version },
      contentChanges: [{ text }],
    });
    return document;
  }

  /**
   * Keeps `uri` open, once synced, until the returned release is called (idempotent). A call
   * takes the hold before its sync and lets go when it has its answer, so that eviction never
   * closes a document between a call's sync and the server's answer about it.
   */
  hold(uri: string): () => void {
    this.holds.set(uri, (this.holds.get(uri) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holds.get(uri) ?? 1) - 1;
      if (left > 0) this.holds.set(uri, left);
      else this.holds.delete(uri);
      // Documents held past the cap are closed once nothing holds them; a dead server's pipe
      // failing here is reported by the session, not by the call that let go.
      void this.evictPastCap().catch(() => {});
    };
  }

  /** Whether a call holds `uri` open now (see {@link hold}). */
  isHeld(uri: string): boolean {
    return this.holds.has(uri);
  }

  async close(uri: string): Promise<void> {
    const known = this.documents.get(uri);
    if (!known) return;
    this.documents.delete(uri);
    this.closedVersions.set(uri, known.version);
    this.options.onClosed(uri);
    await this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** How many didOpen, didChange and didClose notifications have been sent so far. */
  get sentCount(): number {
    return this.sent;
  }

  /** The {@link sentCount} at the last notification about `uri`, or 0 when none was sent. */
  lastSentFor(uri: string): number {
    return this.lastSent.get(uri) ?? 0;
  }

  get(uri: string): OpenDocument | undefined {
    return this.documents.get(uri);
  }

  /** The open documents' URIs, in no particular order. */
  openUris(): string[] {
    return [...this.documents.keys()];
  }

  get openCount(): number {
    return this.documents.size;
  }

  /** The cap on open documents (`max_open_documents`). */
  get maxOpen(): number {
    return this.options.maxOpen;
  }

  private touch(uri: string, document: OpenDocument): void {
    this.documents.delete(uri);
    this.documents.set(uri, document);
  }

  private async evictPastCap(keep?: string): Promise<void> {
    while (this.documents.size > this.options.maxOpen) {
      const victim = [...this.documents.keys()].find((uri) => uri !== keep && !this.holds.has(uri));
      if (victim === undefined) return;
      await this.close(victim);
    }
  }

  // A server that died between two messages makes the write fail (EPIPE): that is the server's
  // crash, not an internal error of the bridge.
  private async notify<P extends { textDocument: { uri: string } }>(type: NotificationType<P>, params: P): Promise<void> {
    this.lastSent.set(params.textDocument.uri, ++this.sent);
    try {
      await (this.connection.sendNotification as (t: NotificationType<P>, p: P) => Promise<void>)(type, params);
      this.options.onSent?.();
    } catch (error) {
      const refused = this.options.refusal?.(type.method);
      if (refused) throw refused;
      const message = errorText(error);
      throw new BridgeError("ServerCrashed", `the language server went away during ${type.method}: ${message}`, { method: type.method }, { cause: error });
    }
  }
}
