import type { Diagnostic, ProgressToken } from "vscode-languageserver-protocol";
import { isFlycheckToken } from "./settle-flycheck.js";

/**
 * What a rust-analyzer session knows of its two diagnostics sources: whether its own analysis is
 * ready (`experimental/serverStatus` quiescent), whether a `cargo check` run has ever begun and
 * whether one the bridge asked for has not begun yet, and the last set published for each file.
 * rust-analyzer publishes only flycheck's findings when the client pulls (its own analysis
 * answers the pulls), and a publish always carries a file's whole set; a file it never published
 * has none. So the sets are kept whatever their version, and across the bridge's own close and
 * reopen of a document, which rust-analyzer does not answer with a new publish.
 */
export class FlycheckState {
  quiescent = false;
  /** A flycheck run has begun in this session (rust-analyzer starts one once it is quiescent). */
  everBegun = false;
  /** The bridge asked for a run (`rust-analyzer/runFlycheck`) that has not begun yet. */
  pending = false;
  private readonly latest = new Map<string, readonly Diagnostic[]>();

  onStatus(quiescent: boolean): void {
    this.quiescent = quiescent;
  }

  onProgress(token: ProgressToken, kind: "begin" | "report" | "end"): void {
    if (kind !== "begin" || !isFlycheckToken(token)) return;
    this.everBegun = true;
    this.pending = false;
  }

  onPublish(uri: string, diagnostics: readonly Diagnostic[]): void {
    this.latest.set(uri, diagnostics);
  }

  /** The last published set of `uri`, or none when rust-analyzer never published one. */
  latestFor(uri: string): readonly Diagnostic[] {
    return this.latest.get(uri) ?? [];
  }
}
