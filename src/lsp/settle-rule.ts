import { type Diagnostic, DocumentDiagnosticRequest } from "vscode-languageserver-protocol";
import type { SettleDecision, SettleEvent, SettleState, SettleTarget } from "./settle-state.js";

/**
 * The settle rule of LSP diagnostics, as one pure function of the events a session saw. It knows
 * nothing of connections or clocks: `src/lsp/features/diagnostics-settle.ts` feeds it the live
 * events and carries out its actions (a pull itself; a barrier, a flycheck run or a cargo run
 * through the server's adapter), and the unit tests feed it recorded timelines of real servers and synthetic
 * orders. docs/contributors/adapters.md gives each strategy in full, and why it is sound for its server.
 *
 * The rule, for one document version:
 * - **Pull** when the server offers `textDocument/diagnostic` (statically, or by a live
 *   registration): settled by the first `full` answer to a pull sent after the version was synced,
 *   merged with a push that describes the version and came before it. An `unchanged` answer to a
 *   pull that named no previous result is no answer: the pull is sent again, at most
 *   {@link MAX_PULLS} times. A pull the server cancelled and asks to be sent again
 *   (ServerCancelled with `retriggerRequest`) is sent again, uncounted.
 * - **Push** otherwise: the candidate is the latest `publishDiagnostics` that describes the version
 *   (its `version` matches, or, from servers that send none, it arrived after the sync), while no
 *   work-done progress is running. Neither a version nor the end of progress says that a publish
 *   is the server's last: servers publish in phases (syntax, then types; a first pass, then a
 *   check). So the candidate settles only once the server has said nothing at all (no publish of
 *   any document, no progress) for the target's quiet window; a server that keeps talking keeps
 *   the wait open until the deadline. With no window (0) a push never settles: the answer is "not
 *   settled", never a first phase taken for the whole.
 * - A closed connection fails the wait, and so does the deadline; neither is ever a clean answer.
 *
 * The server's adapter picks a `SettleStrategy` (`settle-state.ts`, with the rule's other terms),
 * which changes that rule in one place each.
 */

/** How many pulls one version gets before an `unchanged`-only server is given up on. */
export const MAX_PULLS = 3;

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
    own: typeof target.strategy === "object" ? target.strategy.start : undefined,
    barrier: { needed: false, inFlight: false },
    quiet: { mark: 0, heard: null },
  };
}

/** Folds one event into the state; never mutates its input. */
export function stepSettle(before: SettleState, event: SettleEvent): SettleState {
  if (before.outcome) return before;
  // Whatever the server says restarts the quiet window.
  const spoke = event.type === "publish" || event.type === "progress";
  const state = spoke ? { ...before, quiet: { mark: before.quiet.mark + 1, heard: null } } : before;
  const { target } = state;
  if (typeof target.strategy === "object") {
    const folded = target.strategy.step(state, event);
    if (folded) return folded;
  }
  switch (event.type) {
    case "register":
      return event.method === DocumentDiagnosticRequest.method ? { ...state, pullRegistrations: new Set([...state.pullRegistrations, event.id]) } : state;
    case "unregister":
      return state.pullRegistrations.has(event.id) ? { ...state, pullRegistrations: without(state.pullRegistrations, event.id) } : state;
    case "progress":
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
    case "session-sync":
      return { ...state, barrier: { ...state.barrier, needed: true } };
    case "barrier-sent":
      return { ...state, barrier: { needed: false, inFlight: true } };
    case "barrier-answer":
      return { ...state, barrier: { ...state.barrier, inFlight: false } };
    case "quiet":
      return event.mark === state.quiet.mark ? { ...state, quiet: { ...state.quiet, heard: event.mark } } : state;
    // A server's own events, which only its own strategy reads.
    case "status":
    case "flycheck-history":
    case "flycheck-requested":
    case "flycheck-publish":
    case "build-run":
    case "build-run-publish":
    case "build-run-requested":
    case "build-run-history":
    case "build-run-asked":
      return state;
    case "pull-answer":
      if (event.uri !== target.uri || !state.pullInFlight) return state;
      // After progress, an answer given while progress runs is provisional too: the pull is asked
      // again once the progress has ended.
      if (target.strategy === "after-progress" && state.running.size > 0) return { ...state, pullInFlight: false };
      if (event.report.kind === "full") return { ...state, pullInFlight: false, outcome: { kind: "settled", pull: event.report.items, push: state.push } };
      return { ...state, pullInFlight: false };
    case "pull-retrigger":
      // No answer at all, so it uses up none of the version's pulls: the deadline bounds a
      // server that keeps cancelling.
      return event.uri === target.uri && state.pullInFlight ? { ...state, pullInFlight: false, pullsSent: state.pullsSent - 1 } : state;
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
  if (typeof strategy === "object") {
    const decision = strategy.decide(state);
    return decision.kind === "pull" ? pullUnlessSpent(state) : decision;
  }
  if (strategy === "barrier" && (state.barrier.needed || state.barrier.inFlight)) {
    return state.barrier.inFlight ? { kind: "wait" } : { kind: "barrier" };
  }
  if (state.target.pullStatic || state.pullRegistrations.size > 0) {
    if (state.pullInFlight) return { kind: "wait" };
    if (strategy === "after-progress" && state.running.size > 0) return { kind: "wait" };
    return pullUnlessSpent(state);
  }
  if (state.push === null || state.running.size > 0) return { kind: "wait" };
  if (strategy === undefined || strategy === "standard") return afterQuiet(state, state.push);
  return { kind: "settled", pull: null, push: state.push };
}

/** The standard push rule's candidate, once the server has been quiet for the window after it. */
function afterQuiet(state: SettleState, push: readonly Diagnostic[]): SettleDecision {
  if (!state.target.quietMs) return { kind: "failed", reason: "no-last-publish" };
  return state.quiet.heard === state.quiet.mark ? { kind: "settled", pull: null, push } : { kind: "quiet", mark: state.quiet.mark };
}

/** A pull, unless this version has had {@link MAX_PULLS} already. */
function pullUnlessSpent(state: SettleState): SettleDecision {
  return state.pullsSent < MAX_PULLS ? { kind: "pull" } : { kind: "failed", reason: "no-full-answer" };
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
