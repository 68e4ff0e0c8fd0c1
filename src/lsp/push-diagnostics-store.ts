import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";

/** The latest `publishDiagnostics` of one document, with when it arrived. */
interface PublishedDiagnostics {
  readonly version: number | null;
  readonly diagnostics: readonly Diagnostic[];
  /** Increases with every publish for any document: orders publishes against our own syncs. */
  readonly sequence: number;
  /** Whether work-done progress was running when it arrived (a provisional publish for some servers). */
  readonly duringProgress: boolean;
}

/**
 * Keeps the last pushed diagnostics per URI. Only the newest publish matters: LSP says each one
 * replaces the previous set. Once the server has sent a versioned publish, its unversioned ones
 * (clears of closed documents) are ignored. Waits hear of publishes through the client's
 * `ServerEvents`, and only of the publishes kept here.
 */
export class PushDiagnosticsStore {
  private readonly latest = new Map<string, PublishedDiagnostics>();
  private counter = 0;
  private versioned = false;

  /**
   * Records a publish; `duringProgress` says whether work-done progress was running as it arrived.
   * Returns false for a publish that is ignored (see the class comment), which no wait may hear of.
   */
  onPublish(params: PublishDiagnosticsParams, duringProgress = false): boolean {
    // A server that versions its publishes sends an unversioned one only to clear a document it
    // was told is closed (clangd and pyright do). Once the cap on open documents closed it and a
    // call reopened it, that clear could arrive after the reopen and pass for a clean answer
    // about the new version (seen in the long soak): so, from such a server, it is dropped.
    if (typeof params.version === "number") this.versioned = true;
    else if (this.versioned) return false;
    this.latest.set(params.uri, {
      version: typeof params.version === "number" ? params.version : null,
      diagnostics: params.diagnostics,
      sequence: ++this.counter,
      duringProgress,
    });
    return true;
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
