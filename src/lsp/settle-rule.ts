import { DocumentDiagnosticRequest, type Diagnostic } from "vscode-languageserver-protocol";
import type { ServerEvent } from "./server-events.js";

/**
 * The settle rule of LSP diagnostics, as one pure function of the events a session saw. It knows
 * nothing of connections or clocks: `src/lsp/features/diagnostics-settle.ts` feeds it the live
 * events and carries out its one action (send a pull), and the unit tests feed it recorded
 * timelines of real servers and synthetic orders.
 *
 * The rule, for one document version:
 * - **Pull** when the server offers `textDocument/diagnostic` (statically, or by a live
 *   registration): settled by the first `full` answer to a pull sent after the version was synced.
 *   A push that describes the version and came before that answer is merged in. An `unchanged`
 *   answer to a pull that named no previous result is no answer (pyright gives exactly that for a
 *   file it has not yet taken in): the pull is sent again, at most {@link MAX_PULLS} times.
 * - **Push** otherwise: settled by the latest `publishDiagnostics` that describes the version (its
 *   `version` matches, or, from servers that send none, it arrived after the sync) while no
 *   work-done progress is running. With `settleAfterProgress`, a publish that arrived while
 *   progress ran is no candidate at all: only one made after the progress ended settles.
 * - A closed connection fails the wait, and so does the deadline; neither is ever a clean answer.
 */

/** Where the rule starts: the document version awaited, and what the server announced statically. */
export interface SettleTarget {
  readonly uri: string;
  readonly version: number;
  /** The server's `initialize` result had a `diagnosticProvider`. */
  readonly pullStatic: boolean;
  /**
   * The profile's `settle_after_progress`: a publish that arrives while work-done progress runs
   * is provisional (Biome publishes an empty set during its project scan, then the real one).
   */
  readonly settleAfterProgress?: boolean;
}

/** A pull report as the rule needs it: the items of a `full` report, or `unchanged`. */
export type PullReport = { readonly kind: "full"; readonly items: readonly Diagnostic[] } | { readonly kind: "unchanged" };

/** The server's events, plus what the client did and what happened to the wait itself. */
export type SettleEvent =
  | ServerEvent
  | { readonly type: "sync"; readonly uri: string; readonly version: number }
  | { readonly type: "pull-sent"; readonly uri: string }
  | { readonly type: "pull-answer"; readonly uri: string; readonly report: PullReport }
  | { readonly type: "deadline" };

/** What the rule says now. `pull` asks the caller to send one `textDocument/diagnostic`. */
export type SettleDecision =
  | { readonly kind: "wait" }
  | { readonly kind: "pull" }
  | { readonly kind: "settled"; readonly pull: readonly Diagnostic[] | null; readonly push: readonly Diagnostic[] | null }
  | { readonly kind: "failed"; readonly reason: "closed" | "deadline" | "no-full-answer" };

/** How many pulls one version gets before an `unchanged`-only server is given up on. */
export const MAX_PULLS = 3;

/** The rule's state after some events; build it with {@link startSettle} and {@link stepSettle}. */
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
}

export function startSettle(target: SettleTarget): SettleState {
  return { target, synced: false, pullRegistrations: new Set(), running: new Set(), push: null, pullsSent: 0, pullInFlight: false, outcome: null };
}

/** Folds one event into the state; never mutates its input. */
export function stepSettle(state: SettleState, event: SettleEvent): SettleState {
  if (state.outcome) return state;
  const { target } = state;
  switch (event.type) {
    case "register":
      return event.method === DocumentDiagnosticRequest.method
        ? { ...state, pullRegistrations: new Set([...state.pullRegistrations, event.id]) }
        : state;
    case "unregister":
      return state.pullRegistrations.has(event.id) ? { ...state, pullRegistrations: without(state.pullRegistrations, event.id) } : state;
    case "progress":
      if (event.kind === "begin") return { ...state, running: new Set([...state.running, event.token]) };
      if (event.kind === "end") return { ...state, running: without(state.running, event.token) };
      return state;
    case "sync":
      // Our own later sync of the same document makes everything seen so far stale.
      return event.uri === target.uri && event.version === target.version ? { ...state, synced: true, push: null } : state;
    case "publish":
      if (event.uri !== target.uri || !state.synced) return state;
      // Each publish replaces the previous set, so one for another version withdraws a candidate,
      // and so does a provisional one.
      if (target.settleAfterProgress && state.running.size > 0) return { ...state, push: null };
      return { ...state, push: event.version === null || event.version === target.version ? event.diagnostics : null };
    case "pull-sent":
      return event.uri === target.uri && state.synced ? { ...state, pullsSent: state.pullsSent + 1, pullInFlight: true } : state;
    case "pull-answer":
      if (event.uri !== target.uri || !state.pullInFlight) return state;
      // With `settleAfterProgress`, an answer given while progress runs is provisional too: the
      // pull is asked again once the progress has ended.
      if (target.settleAfterProgress && state.running.size > 0) return { ...state, pullInFlight: false };
      if (event.report.kind === "full") return { ...state, pullInFlight: false, outcome: { kind: "settled", pull: event.report.items, push: state.push } };
      return { ...state, pullInFlight: false };
    case "close":
      return { ...state, outcome: { kind: "failed", reason: "closed" } };
    case "deadline":
      return { ...state, outcome: { kind: "failed", reason: "deadline" } };
  }
}

/** What to do in `state`: wait for more events, send a pull, or the outcome. */
export function decideSettle(state: SettleState): SettleDecision {
  if (state.outcome) return state.outcome;
  if (!state.synced) return { kind: "wait" };
  if (state.target.pullStatic || state.pullRegistrations.size > 0) {
    if (state.pullInFlight) return { kind: "wait" };
    if (state.target.settleAfterProgress && state.running.size > 0) return { kind: "wait" };
    return state.pullsSent < MAX_PULLS ? { kind: "pull" } : { kind: "failed", reason: "no-full-answer" };
  }
  return state.push !== null && state.running.size === 0 ? { kind: "settled", pull: null, push: state.push } : { kind: "wait" };
}

/** The rule over a whole list of events: what `decideSettle` says after the last one. */
export function settleOver(target: SettleTarget, events: readonly SettleEvent[]): SettleDecision {
  return decideSettle(events.reduce(stepSettle, startSettle(target)));
}

function without<T>(set: ReadonlySet<T>, item: T): Set<T> {
  const next = new Set(set);
  next.delete(item);
  return next;
}
