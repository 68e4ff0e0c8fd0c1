import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver-protocol";
import type { MessageConnection, NotificationType } from "vscode-jsonrpc/node";
import { BridgeError } from "../contract/errors.js";

/** A document as the server knows it. */
export interface OpenDocument {
  readonly uri: string;
  readonly languageId: string;
  readonly version: number;
  readonly text: string;
  /** The push-store sequence just before this version was sent: later publishes describe it. */
  readonly sentAfterSequence: number;
}

/**
 * Keeps the server's view of each file equal to the bytes on disk at call time: didOpen the
 * first time, a full didChange with the next version when the text changed, nothing otherwise.
 */
export class DocumentSync {
  private readonly documents = new Map<string, OpenDocument>();

  constructor(
    private readonly connection: MessageConnection,
    private readonly currentSequence: () => number,
  ) {}

  /** Sends what is needed so the server has `text` for `uri`; returns the document as sent. */
  async sync(uri: string, languageId: string, text: string): Promise<OpenDocument> {
    const known = this.documents.get(uri);
    if (known && known.text === text) return known;
    const sentAfterSequence = this.currentSequence();
    if (!known) {
      const document = { uri, languageId, version: 1, text, sentAfterSequence };
      this.documents.set(uri, document);
      await this.notify(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version: 1, text },
      });
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

  async close(uri: string): Promise<void> {
    if (!this.documents.delete(uri)) return;
    await this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  // A server that died between two messages makes the write fail (EPIPE): that is the server's
  // crash, not an internal error of the bridge.
  private async notify<P>(type: NotificationType<P>, params: P): Promise<void> {
    try {
      await (this.connection.sendNotification as (t: NotificationType<P>, p: P) => Promise<void>)(type, params);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new BridgeError("ServerCrashed", `the language server went away during ${type.method}: ${message}`, { method: type.method }, { cause: error });
    }
  }

  get(uri: string): OpenDocument | undefined {
    return this.documents.get(uri);
  }

  get openCount(): number {
    return this.documents.size;
  }
}
