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
 * - a strategy of the server's own ({@link OwnSettleStrategy}), which its language's folder
 *   brings with the state it tracks: rust-analyzer's `flycheck` and bacon-ls's `cargo-run`
 *   (docs/contributors/adapters.md).
 */
export type SettleStrategy = "standard" | "after-progress" | "barrier" | OwnSettleStrategy;

/**
 * A settle strategy a server's adapter brings: what it tracks of one wait (`own` of the state,
 * starting from `start`), how it reads the events it reads its own way, and what it decides once
 * the version is synced. The rule stays pure and server-blind: it asks the strategy first and
 * falls back on its own terms where the strategy leaves an event to it.
 */
export interface OwnSettleStrategy<Own = unknown> {
  /** Its name, as docs/contributors/adapters.md and the settle recordings give it. */
  readonly name: string;
  readonly start: Own;
  /** Folds an event the strategy reads its own way; null leaves it to the common rule. */
  step(state: SettleState<Own>, event: SettleEvent): SettleState<Own> | null;
  /** What it says for a synced, unsettled wait; a `pull` is bounded by the common rule. */
  decide(state: SettleState<Own>): SettleDecision;
}

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
  | { readonly type: "build-run-history"; readonly running: readonly (string | number)[]; readonly pending: number }
  /** The wait asked its adapter for a run; it hears `build-run-requested` once the request is sent. */
  | { readonly type: "build-run-asked" }
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
  | { readonly kind: "build-run" }
  | { readonly kind: "barrier" }
  /**
   * A push candidate waits for the quiet window: the caller feeds `{ type: "quiet", mark }` once
   * the target's `quietMs` have passed since it was asked for this mark (a later mark replaces it).
   */
  | { readonly kind: "quiet"; readonly mark: number }
  | {
      readonly kind: "settled";
      readonly pull: readonly Diagnostic[] | null;
      readonly push: readonly Diagnostic[] | null;
      /** The server did not check the file, and why (cargo failed): no finding and never clean. */
      readonly notChecked?: string;
    }
  | { readonly kind: "failed"; readonly reason: SettleFailure };

/**
 * Why a wait failed: the connection closed, the deadline passed, every pull answered
 * `unchanged`, or the server's publishes cannot be known to be its last (no quiet window).
 */
export type SettleFailure = "closed" | "deadline" | "no-full-answer" | "no-last-publish";

/** The rule's state after some events; build it with `startSettle` and `stepSettle` (`settle-rule.ts`). */
export interface SettleState<Own = unknown> {
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
  /** What the target's own strategy tracks ({@link OwnSettleStrategy}); undefined for the others. */
  readonly own: Own;
  /** A `barrier` target: a sync not yet covered by a barrier, and a barrier in flight. */
  readonly barrier: { readonly needed: boolean; readonly inFlight: boolean };
  /**
   * The quiet window: `mark` counts what the server has said (every publish, of any document, and
   * every progress event); `heard` is the mark whose window has passed with nothing said, or null.
   */
  readonly quiet: { readonly mark: number; readonly heard: number | null };
}
