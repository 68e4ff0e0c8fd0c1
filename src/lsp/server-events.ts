import type { Diagnostic, ProgressToken } from "vscode-languageserver-protocol";
import { ListenerSet } from "./listener-set.js";

/**
 * What a server told the client that bears on whether its diagnostics are final, in arrival
 * order. Recorded timelines of real servers (`tests/fixtures/settle-timelines/`) are lists of
 * these, so their shape is kept plain JSON.
 */
export type ServerEvent =
  | { readonly type: "publish"; readonly uri: string; readonly version: number | null; readonly diagnostics: readonly Diagnostic[] }
  | { readonly type: "progress"; readonly token: ProgressToken; readonly kind: "begin" | "report" | "end" }
  | { readonly type: "register"; readonly id: string; readonly method: string }
  | { readonly type: "unregister"; readonly id: string }
  /** rust-analyzer's `experimental/serverStatus`: whether its own analysis is ready. */
  | { readonly type: "status"; readonly quiescent: boolean }
  /**
   * Every publish of rust-analyzer, its version whatever it is, told by its adapter: the flycheck
   * sets (see `src/languages/rust-analyzer/flycheck-state.ts`), which the filtered `publish` events may leave out.
   */
  | { readonly type: "flycheck-publish"; readonly uri: string; readonly diagnostics: readonly Diagnostic[] }
  /** Not the server's own: the rust-analyzer adapter asked it for a flycheck run, told to every wait. */
  | { readonly type: "flycheck-requested" }
  /**
   * bacon-ls's `cargo check` runs, told by its adapter from their work-done progress: a run began,
   * or it ended with its findings published ("done"), or without ("stopped": cancelled by a newer
   * run or superseded by one), or cargo itself failed ("failed", with the message bacon-ls logs
   * for it: an unparsable Cargo.toml, a manifest cargo refuses). See `src/languages/bacon-ls/adapter.ts`.
   */
  | { readonly type: "build-run"; readonly token: ProgressToken; readonly kind: "begin" | "done" | "stopped" }
  | { readonly type: "build-run"; readonly token: ProgressToken; readonly kind: "failed"; readonly reason: string }
  /** A file's set as bacon-ls last published it, whatever its version, told by its adapter. */
  | { readonly type: "build-run-publish"; readonly uri: string; readonly diagnostics: readonly Diagnostic[] }
  /** Not the server's own: the bacon-ls adapter asked for a run (a didSave), told to every wait. */
  | { readonly type: "build-run-requested" }
  /** Not the server's own: the bridge sent a didOpen, didChange or didClose of any document. */
  | { readonly type: "session-sync" }
  | { readonly type: "close" };

/**
 * The one stream of {@link ServerEvent}s of a connection. Listeners are called synchronously in
 * arrival order, after the client's own stores were updated; `subscribe` returns the only way to
 * stop listening, and `listenerCount` lets tests prove that every wait let go.
 */
export class ServerEvents {
  private readonly listeners = new ListenerSet<[event: ServerEvent]>();

  emit(event: ServerEvent): void {
    this.listeners.emit(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
