import { DocumentDiagnosticRequest, type Diagnostic, type ProgressToken } from "vscode-languageserver-protocol";
import type { ServerEvent } from "./server-events.js";

/**
 * The settle rule of LSP diagnostics, as one pure function of the events a session saw. It knows
 * nothing of connections or clocks: `src/lsp/features/diagnostics-settle.ts` feeds it the live
 * events and carries out its actions (a pull itself; a barrier or a flycheck run through the
 * server's adapter), and the unit tests feed it recorded timelines of real servers and synthetic
 * orders. docs/adapters.md gives each strategy in full, and why it is sound for its server.
 *
 * The rule, for one document version:
 * - **Pull** when the server offers `textDocument/diagnostic` (statically, or by a live
 *   registration): settled by the first `full` answer to a pull sent after the version was synced,
 *   merged with a push that describes the version and came before it. An `unchanged` answer to a
 *   pull that named no previous result is no answer: the pull is sent again, at most
 *   {@link MAX_PULLS} times.
 * - **Push** otherwise: settled by the latest `publishDiagnostics` that describes the version (its
 *   `version` matches, or, from servers that send none, it arrived after the sync) while no
 *   work-done progress is running.
 * - A closed connection fails the wait, and so does the deadline; neither is ever a clean answer.
 *
 * The server's adapter picks a {@link SettleStrategy}, which changes that rule in one place each.
 */

/**
 * How a server's diagnostics settle, beyond the rule above:
 * - `standard`: push or pull as above.
 * - `after-progress` (Biome): a publish or pull answer made while work-done progress runs is
 *   provisional, no candidate at all; only one made after the progress ended settles.
 * - `barrier` (gopls): a document's diagnostics depend on other documents, so before the push
 *   rule may settle, every sync the session sent (of any document) is covered by a barrier, a
 *   request sent after it and answered; a sync during the wait asks for another.
 * - `flycheck` (rust-analyzer): its analysis answers pulls once it is quiescent, and `cargo check`
 *   runs publish under progress tokens {@link FLYCHECK_TOKEN_PREFIX}N. Settled once a run that
 *   began after the sync has ended, none runs or is still to begin, and then pulls sent after that
 *   end have answered `full` {@link FLYCHECK_BARRIERS} times in a row; the flycheck part is the
 *   file's last published set. The caller is asked for a run (`flycheck`) when none began after
 *   the sync, except before rust-analyzer's own first run.
 */
export type SettleStrategy = "standard" | "after-progress" | "barrier" | "flycheck";

/** rust-analyzer runs each `cargo check` of its flycheck under a progress token with this prefix. */
export const FLYCHECK_TOKEN_PREFIX = "rust-analyzer/flycheck/";

export function isFlycheckToken(token: ProgressToken): boolean {
  return typeof token === "string" && token.startsWith(FLYCHECK_TOKEN_PREFIX);
}

/** Where the rule starts: the document version awaited, and what the server announced statically. */
export interface SettleTarget {
  readonly uri: string;
  readonly version: number;
  /** The server's `initialize` result had a `diagnosticProvider`. */
  readonly pullStatic: boolean;
  /** The server's adapter's strategy; absent: `standard`. */
  readonly strategy?: SettleStrategy;
}

/** A pull report as the rule needs it: the items of a `full` report, or `unchanged`. */
export type PullReport = { readonly kind: "full"; readonly items: readonly Diagnostic[] } | { readonly kind: "unchanged" };

/** The server's events, plus what the client did and what happened to the wait itself. */
export type SettleEvent =
  | ServerEvent
  | { readonly type: "sync"; readonly uri: string; readonly version: number }
  | { readonly type: "pull-sent"; readonly uri: string }
  | { readonly type: "pull-answer"; readonly uri: string; readonly report: PullReport }
  /** The session's flycheck state as the wait starts (fed before the sync). */
  | { readonly type: "flycheck-history"; readonly everBegun: boolean; readonly pending: boolean }
  | { readonly type: "barrier-sent" }
  | { readonly type: "barrier-answer" }
  | { readonly type: "deadline" };

/** What the rule says now. `pull` asks the caller to send one `textDocument/diagnostic`. */
export type SettleDecision =
  | { readonly kind: "wait" }
  | { readonly kind: "pull" }
  | { readonly kind: "flycheck" }
  | { readonly kind: "barrier" }
  | { readonly kind: "settled"; readonly pull: readonly Diagnostic[] | null; readonly push: readonly Diagnostic[] | null }
  | { readonly kind: "failed"; readonly reason: "closed" | "deadline" | "no-full-answer" };

/** How many pulls one version gets before an `unchanged`-only server is given up on. */
export const MAX_PULLS = 3;

/** Full answers, one after another, behind a finished flycheck run before it is believed. */
export const FLYCHECK_BARRIERS = 2;

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
  /** What a `flycheck` target tracks (see the rule above); unused otherwise. */
  readonly flycheck: FlycheckProgress;
  /** A `barrier` target: a sync not yet covered by a barrier, and a barrier in flight. */
  readonly barrier: { readonly needed: boolean; readonly inFlight: boolean };
}

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

export function startSettle(target: SettleTarget): SettleState {
  return {
    target,
    synced: false,
    pullRegistrations: new Set(),
    running: new Set(),
    push: null,
    pullsSent: 0,
    pullInFlight: false,
    outcome: null,
    flycheck: { quiescent: false, everBegun: false, pending: false, begunAfterSync: false, pullStale: false, published: [], barriers: 0 },
    barrier: { needed: false, inFlight: false },
  };
}

/** Folds one event into the state; never mutates its input. */
export function stepSettle(state: SettleState, event: SettleEvent): SettleState {
  if (state.outcome) return state;
  const { target } = state;
  switch (event.type) {
    case "register":
      return event.method === DocumentDiagnosticRequest.method ? { ...state, pullRegistrations: new Set([...state.pullRegistrations, event.id]) } : state;
    case "unregister":
      return state.pullRegistrations.has(event.id) ? { ...state, pullRegistrations: without(state.pullRegistrations, event.id) } : state;
    case "progress":
      if (event.kind === "begin" && isFlycheckToken(event.token)) {
        // A new run makes the barriers behind the last one void (and uncounted against the limit).
        const flycheck = { ...state.flycheck, everBegun: true, pending: false, begunAfterSync: state.flycheck.begunAfterSync || state.synced, barriers: 0 };
        const pullsSent = state.pullsSent - state.flycheck.barriers;
        return { ...state, pullsSent, running: new Set([...state.running, event.token]), flycheck: { ...flycheck, pullStale: state.pullInFlight } };
      }
      if (event.kind === "begin") return { ...state, running: new Set([...state.running, event.token]) };
      if (event.kind === "end") return { ...state, running: without(state.running, event.token) };
      return state;
    case "sync":
      // Our own later sync of the same document makes everything seen so far stale.
      // Under a barrier rule, the sync itself (and every sync of the session before it) is to be
      // covered by a barrier.
      return event.uri === target.uri && event.version === target.version
        ? { ...state, synced: true, push: null, barrier: { ...state.barrier, needed: state.barrier.needed || target.strategy === "barrier" } }
        : state;
    case "publish":
      if (event.uri !== target.uri || !state.synced) return state;
      // Each publish replaces the previous set, so one for another version withdraws a candidate,
      // and so does a provisional one.
      if (target.strategy === "after-progress" && state.running.size > 0) return { ...state, push: null };
      return { ...state, push: event.version === null || event.version === target.version ? event.diagnostics : null };
    case "pull-sent":
      return event.uri === target.uri && state.synced ? { ...state, pullsSent: state.pullsSent + 1, pullInFlight: true } : state;
    case "status":
      return { ...state, flycheck: { ...state.flycheck, quiescent: event.quiescent } };
    case "flycheck-history":
      return { ...state, flycheck: { ...state.flycheck, everBegun: event.everBegun, pending: event.pending } };
    case "flycheck-requested":
      return {
        ...state,
        pullsSent: state.pullsSent - state.flycheck.barriers,
        flycheck: { ...state.flycheck, pending: true, barriers: 0, pullStale: state.flycheck.pullStale || state.pullInFlight },
      };
    case "session-sync":
      return { ...state, barrier: { ...state.barrier, needed: true } };
    case "barrier-sent":
      return { ...state, barrier: { needed: false, inFlight: true } };
    case "barrier-answer":
      return { ...state, barrier: { ...state.barrier, inFlight: false } };
    case "flycheck-publish":
      return event.uri === target.uri ? { ...state, flycheck: { ...state.flycheck, published: event.diagnostics } } : state;
    case "pull-answer":
      if (event.uri !== target.uri || !state.pullInFlight) return state;
      if (target.strategy === "flycheck") {
        // An answer that is no barrier behind a finished run is asked again, and not counted.
        if (state.flycheck.pullStale || !flycheckDone(state)) {
          return { ...state, pullInFlight: false, pullsSent: state.pullsSent - 1, flycheck: { ...state.flycheck, pullStale: false } };
        }
        if (event.report.kind === "full") {
          const barriers = state.flycheck.barriers + 1;
          if (barriers < FLYCHECK_BARRIERS) return { ...state, pullInFlight: false, flycheck: { ...state.flycheck, barriers } };
          return { ...state, pullInFlight: false, outcome: { kind: "settled", pull: event.report.items, push: state.flycheck.published } };
        }
        return { ...state, pullInFlight: false };
      }
      // After progress, an answer given while progress runs is provisional too: the pull is asked
      // again once the progress has ended.
      if (target.strategy === "after-progress" && state.running.size > 0) return { ...state, pullInFlight: false };
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
  const { strategy } = state.target;
  if (strategy === "flycheck") return decideFlycheck(state);
  if (strategy === "barrier" && (state.barrier.needed || state.barrier.inFlight)) {
    return state.barrier.inFlight ? { kind: "wait" } : { kind: "barrier" };
  }
  if (state.target.pullStatic || state.pullRegistrations.size > 0) {
    if (state.pullInFlight) return { kind: "wait" };
    if (strategy === "after-progress" && state.running.size > 0) return { kind: "wait" };
    return state.pullsSent < MAX_PULLS ? { kind: "pull" } : { kind: "failed", reason: "no-full-answer" };
  }
  return state.push !== null && state.running.size === 0 ? { kind: "settled", pull: null, push: state.push } : { kind: "wait" };
}

function decideFlycheck(state: SettleState): SettleDecision {
  const { flycheck } = state;
  if (!flycheck.quiescent || state.pullInFlight) return { kind: "wait" };
  if (!flycheck.begunAfterSync) {
    // Before rust-analyzer's own first run, which it starts once quiescent, asking would race it.
    return flycheck.everBegun && !flycheck.pending ? { kind: "flycheck" } : { kind: "wait" };
  }
  if (!flycheckDone(state)) return { kind: "wait" };
  return state.pullsSent < MAX_PULLS ? { kind: "pull" } : { kind: "failed", reason: "no-full-answer" };
}

/** A run began after the sync, none runs now, and none asked for is still to begin. */
function flycheckDone(state: SettleState): boolean {
  return state.flycheck.begunAfterSync && !state.flycheck.pending && ![...state.running].some(isFlycheckToken);
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
