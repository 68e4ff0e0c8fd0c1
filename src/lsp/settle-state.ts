import type { Diagnostic } from "vscode-languageserver-protocol";
import type { ServerEvent } from "./server-events.js";

// The terms of the settle rule (`settle-rule.ts`) and of its strategies: what a wait starts from,
// hears, says and keeps. Types only, so that every strategy's file can use them.

/**
 * How a server's diagnostics settle, beyond the push and pull rule of `settle-rule.ts`:
 * - `standard`: push or pull, as that rule says; a push answer settles only after the quiet window.
 * - `after-progress` (Biome): a publish or pull answer made while work-done progress runs is
 *   provisional, no candidate at all; only one made after the progress ended settles.
 * - `barrier` (gopls): a document's diagnostics depend on other documents, so before the push
 *   rule may settle, every sync the session sent (of any document) is covered by a barrier, a
 *   request sent after it and answered; a sync during the wait asks for another.
 * - `flycheck` (rust-analyzer, `adapters/rust-analyzer/settle-flycheck.ts`): its analysis answers pulls once it is
 *   quiescent, and `cargo check` runs publish. Settled once a run that began after the sync has
 *   ended, none runs or is still to begin, and then pulls sent after that end have answered `full`
 *   twice in a row; the flycheck part is the file's last published set. The caller is asked for a
 *   run (`flycheck`) when none began after the sync, except before rust-analyzer's own first run.
 * - `cargo-run` (bacon-ls, `adapters/bacon-ls/settle-cargo-run.ts`): only `cargo check` runs publish. The caller is
 *   asked for a run (`cargo-run`) after the sync; settled once a run begun after that request has
 *   ended with its findings published, none runs, and none asked for is still to begin. The answer
 *   is the file's last published set.
 */
export type SettleStrategy = "standard" | "after-progress" | "barrier" | "flycheck" | "cargo-run";

/** Where the rule starts: the document version awaited, and what the server announced statically. */
export interface SettleTarget {
  readonly uri: string;
  readonly version: number;
  /** The server's `initialize` result had a `diagnosticProvider`, or its adapter reads it by pull alone. */
  readonly pullStatic: boolean;
  /** The server's adapter's strategy; absent: `standard`. */
  readonly strategy?: SettleStrategy;
  /**
   * The quiet window of the `standard` strategy's push rule, in milliseconds: how long the server
   * must say nothing (no publish, no progress) after the latest publish that describes the version
   * before that publish is taken as its last. 0: none, so a push never settles the `standard`
   * strategy. Absent: 0.
   */
  readonly quietMs?: number;
}

/** A pull report as the rule needs it: the items of a `full` report, or `unchanged`. */
export type PullReport = { readonly kind: "full"; readonly items: readonly Diagnostic[] } | { readonly kind: "unchanged" };

/** The server's events, plus what the client did and what happened to the wait itself. */
export type SettleEvent =
  | ServerEvent
  | { readonly type: "sync"; readonly uri: string; readonly version: number }
  | { readonly type: "pull-sent"; readonly uri: string }
  | { readonly type: "pull-answer"; readonly uri: string; readonly report: PullReport }
  /** The server cancelled the pull in flight and asks for it again (LSP's ServerCancelled). */
  | { readonly type: "pull-retrigger"; readonly uri: string }
  /** The session's flycheck state as the wait starts (fed before the sync). */
  | { readonly type: "flycheck-history"; readonly everBegun: boolean; readonly pending: boolean }
  /** The session's running cargo runs and how many asked for have not begun yet, as the wait starts (fed before the sync). */
  | { readonly type: "cargo-run-history"; readonly running: readonly (string | number)[]; readonly pending: number }
  /** The wait asked its adapter for a run; it hears `cargo-run-requested` once the request is sent. */
  | { readonly type: "cargo-run-asked" }
  | { readonly type: "barrier-sent" }
  | { readonly type: "barrier-answer" }
  /** The quiet window armed at `mark` (a `quiet` decision's) has passed. */
  | { readonly type: "quiet"; readonly mark: number }
  | { readonly type: "deadline" };

/** What the rule says now. `pull` asks the caller to send one `textDocument/diagnostic`. */
export type SettleDecision =
  | { readonly kind: "wait" }
  | { readonly kind: "pull" }
  | { readonly kind: "flycheck" }
  | { readonly kind: "cargo-run" }
  | { readonly kind: "barrier" }
  /**
   * A push candidate waits for the quiet window: the caller feeds `{ type: "quiet", mark }` once
   * the target's `quietMs` have passed since it was asked for this mark (a later mark replaces it).
   */
  | { readonly kind: "quiet"; readonly mark: number }
  | { readonly kind: "settled"; readonly pull: readonly Diagnostic[] | null; readonly push: readonly Diagnostic[] | null }
  | { readonly kind: "failed"; readonly reason: SettleFailure };

/**
 * Why a wait failed: the connection closed, the deadline passed, every pull answered
 * `unchanged`, or the server's publishes cannot be known to be its last (no quiet window).
 */
export type SettleFailure = "closed" | "deadline" | "no-full-answer" | "no-last-publish";

/** The rule's state after some events; build it with `startSettle` and `stepSettle` (`settle-rule.ts`). */
export interface SettleState {
  readonly target: SettleTarget;
  readonly synced: boolean;
  /** Live registration ids of `textDocument/diagnostic`. */
  readonly pullRegistrations: ReadonlySet<string>;
  readonly running: ReadonlySet<string | number>;
  /** The latest publish for the document after the sync, when it describes the version. */
  readonly push: readonly Diagnostic[] | null;
  readonly pullsSent: number;
  readonly pullInFlight: boolean;
  /** Set once settled or failed; later events change nothing. */
  readonly outcome: Extract<SettleDecision, { kind: "settled" | "failed" }> | null;
  /** What a `flycheck` target tracks (see the rule above); unused otherwise. */
  readonly flycheck: FlycheckProgress;
  /** What a `cargo-run` target tracks (see `settle-cargo-run.ts`); unused otherwise. */
  readonly cargoRun: CargoRunProgress;
  /** A `barrier` target: a sync not yet covered by a barrier, and a barrier in flight. */
  readonly barrier: { readonly needed: boolean; readonly inFlight: boolean };
  /**
   * The quiet window: `mark` counts what the server has said (every publish, of any document, and
   * every progress event); `heard` is the mark whose window has passed with nothing said, or null.
   */
  readonly quiet: { readonly mark: number; readonly heard: number | null };
}

/** What the flycheck strategy (`settle-flycheck.ts`) tracks of one wait. */
export interface FlycheckProgress {
  readonly quiescent: boolean;
  readonly everBegun: boolean;
  readonly pending: boolean;
  readonly begunAfterSync: boolean;
  /** A run began or was requested while the pull in flight was out: its answer is no barrier. */
  readonly pullStale: boolean;
  /** The document's last flycheck set. */
  readonly published: readonly Diagnostic[];
  /** Full answers so far to pulls sent behind the finished run (settled at FLYCHECK_BARRIERS). */
  readonly barriers: number;
}

/** What the cargo-run strategy (`settle-cargo-run.ts`) tracks of one wait. */
export interface CargoRunProgress {
  /** The wait asked for a run, and has not heard it requested yet. */
  readonly asked: boolean;
  /** A run was requested after the sync. */
  readonly requested: boolean;
  /** Runs requested and not begun yet: each request begins one run, so each begin takes one off. */
  readonly pending: number;
  /** The runs begun and not ended. */
  readonly running: ReadonlySet<string | number>;
  /** A run begun after the last request heard (after the sync) has ended with its findings published. */
  readonly done: boolean;
  /** Runs begun after the last request heard. */
  readonly begunAfterRequest: ReadonlySet<string | number>;
  /** The document's last published set. */
  readonly published: readonly Diagnostic[];
}
