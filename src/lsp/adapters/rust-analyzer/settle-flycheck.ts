import type { ProgressToken } from "vscode-languageserver-protocol";
import type { FlycheckProgress, SettleDecision, SettleEvent, SettleState } from "../../settle-state.js";

/**
 * The settle rule's `flycheck` strategy (rust-analyzer), pure like the rule: its analysis answers
 * pulls once it is quiescent, and `cargo check` runs publish under progress tokens
 * {@link FLYCHECK_TOKEN_PREFIX}N. docs/adapters.md says why it is sound.
 */

/** rust-analyzer runs each `cargo check` of its flycheck under a progress token with this prefix. */
export const FLYCHECK_TOKEN_PREFIX = "rust-analyzer/flycheck/";

export function isFlycheckToken(token: ProgressToken): boolean {
  return typeof token === "string" && token.startsWith(FLYCHECK_TOKEN_PREFIX);
}

/** Full answers, one after another, behind a finished flycheck run before it is believed. */
export const FLYCHECK_BARRIERS = 2;

export const NO_FLYCHECK_YET: FlycheckProgress = {
  quiescent: false,
  everBegun: false,
  pending: false,
  begunAfterSync: false,
  pullStale: false,
  published: [],
  barriers: 0,
};

/** Folds an event the strategy reads its own way; null leaves it to the common rule. */
export function stepFlycheck(state: SettleState, event: SettleEvent): SettleState | null {
  const { flycheck } = state;
  switch (event.type) {
    case "progress": {
      if (event.kind !== "begin" || !isFlycheckToken(event.token)) return null;
      // A new run makes the barriers behind the last one void (and uncounted against the limit).
      const begun = { ...flycheck, everBegun: true, pending: false, begunAfterSync: flycheck.begunAfterSync || state.synced, barriers: 0 };
      const pullsSent = state.pullsSent - flycheck.barriers;
      return { ...state, pullsSent, running: new Set([...state.running, event.token]), flycheck: { ...begun, pullStale: state.pullInFlight } };
    }
    case "status":
      return { ...state, flycheck: { ...flycheck, quiescent: event.quiescent } };
    case "flycheck-history":
      return { ...state, flycheck: { ...flycheck, everBegun: event.everBegun, pending: event.pending } };
    case "flycheck-requested":
      return {
        ...state,
        pullsSent: state.pullsSent - flycheck.barriers,
        flycheck: { ...flycheck, pending: true, barriers: 0, pullStale: flycheck.pullStale || state.pullInFlight },
      };
    case "flycheck-publish":
      return event.uri === state.target.uri ? { ...state, flycheck: { ...flycheck, published: event.diagnostics } } : state;
    case "pull-answer": {
      if (event.uri !== state.target.uri || !state.pullInFlight) return state;
      // An answer that is no barrier behind a finished run is asked again, and not counted.
      if (flycheck.pullStale || !flycheckDone(state)) {
        return { ...state, pullInFlight: false, pullsSent: state.pullsSent - 1, flycheck: { ...flycheck, pullStale: false } };
      }
      if (event.report.kind !== "full") return { ...state, pullInFlight: false };
      const barriers = flycheck.barriers + 1;
      if (barriers < FLYCHECK_BARRIERS) return { ...state, pullInFlight: false, flycheck: { ...flycheck, barriers } };
      return { ...state, pullInFlight: false, outcome: { kind: "settled", pull: event.report.items, push: flycheck.published } };
    }
    default:
      return null;
  }
}

/** What the strategy says for a synced, unsettled wait; `pull` is bounded by the common rule. */
export function decideFlycheck(state: SettleState): Extract<SettleDecision, { kind: "wait" | "pull" | "flycheck" }> {
  const { flycheck } = state;
  if (!flycheck.quiescent || state.pullInFlight) return { kind: "wait" };
  if (!flycheck.begunAfterSync) {
    // Before rust-analyzer's own first run, which it starts once quiescent, asking would race it.
    return flycheck.everBegun && !flycheck.pending ? { kind: "flycheck" } : { kind: "wait" };
  }
  return flycheckDone(state) ? { kind: "pull" } : { kind: "wait" };
}

/** A run began after the sync, none runs now, and none asked for is still to begin. */
function flycheckDone(state: SettleState): boolean {
  return state.flycheck.begunAfterSync && !state.flycheck.pending && ![...state.running].some(isFlycheckToken);
}
