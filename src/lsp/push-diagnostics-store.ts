import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";

/** The latest `publishDiagnostics` of one document, with when it arrived. */
export interface PublishedDiagnostics {
  readonly version: number | null;
  readonly diagnostics: readonly Diagnostic[];
  /** Increases with every publish for any document: orders publishes against our own syncs. */
  readonly sequence: number;
  /** Whether work-done progress was running when it arrived (a provisional publish for some servers). */
  readonly duringProgress: boolean;
}

/**
 * Keeps the last pushed diagnostics per URI. Only the newest publish matters: LSP says each one
 * replaces the previous set. Waits hear of publishes through the client's `ServerEvents`.
 */
export class PushDiagnosticsStore {
  private readonly latest = new Map<string, PublishedDiagnostics>();
  private counter = 0;

  /** Records a publish; `duringProgress` says whether work-done progress was running as it arrived. */
  onPublish(params: PublishDiagnosticsParams, duringProgress = false): void {
    this.latest.set(params.uri, {
      version: typeof params.version === "number" ? params.version : null,
      diagnostics: params.diagnostics,
      sequence: ++this.counter,
      duringProgress,
    });
  }

  get(uri: string): PublishedDiagnostics | undefined {
    return this.latest.get(uri);
  }

  /** The sequence number the next publish will exceed: taken just before a sync is sent. */
  currentSequence(): number {
    return this.counter;
  }

  /** Drops what is known of a document that was closed. */
  forget(uri: string): void {
    this.latest.delete(uri);
  }
}
