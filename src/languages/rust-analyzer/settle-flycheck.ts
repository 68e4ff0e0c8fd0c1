import type { Diagnostic, ProgressToken } from "vscode-languageserver-protocol";
import type { OwnSettleStrategy, SettleDecision, SettleEvent, SettleState } from "../../lsp/settle-state.js";

/**
 * The settle rule's `flycheck` strategy (rust-analyzer), pure like the rule: its analysis answers
 * pulls once it is quiescent, and `cargo check` runs publish under progress tokens
 * {@link FLYCHECK_TOKEN_PREFIX}N. docs/contributors/adapters.md says why it is sound.
 */

/** rust-analyzer runs each `cargo check` of its flycheck under a progress token with this prefix. */
const FLYCHECK_TOKEN_PREFIX = "rust-analyzer/flycheck/";

export function isFlycheckToken(token: ProgressToken): boolean {
  return typeof token === "string" && token.startsWith(FLYCHECK_TOKEN_PREFIX);
}

/** Full answers, one after another, behind a finished flycheck run before it is believed. */
const FLYCHECK_BARRIERS = 2;

/** What the flycheck strategy tracks of one wait. */
interface FlycheckProgress {
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

type FlycheckState = SettleState<FlycheckProgress>;

const NO_FLYCHECK_YET: FlycheckProgress = {
  quiescent: false,
  everBegun: false,
  pending: false,
  begunAfterSync: false,
  pullStale: false,
  published: [],
  barriers: 0,
};

/** Folds an event the strategy reads its own way; null leaves it to the common rule. */
function stepFlycheck(state: FlycheckState, event: SettleEvent): FlycheckState | null {
  const flycheck = state.own;
  switch (event.type) {
    case "progress": {
      if (event.kind !== "begin" || !isFlycheckToken(event.token)) return null;
      // A new run makes the barriers behind the last one void (and uncounted against the limit).
      const begun = { ...flycheck, everBegun: true, pending: false, begunAfterSync: flycheck.begunAfterSync || state.synced, barriers: 0 };
      const pullsSent = state.pullsSent - flycheck.barriers;
      return { ...state, pullsSent, running: new Set([...state.running, event.token]), own: { ...begun, pullStale: state.pullInFlight } };
    }
    case "status":
      return { ...state, own: { ...flycheck, quiescent: event.quiescent } };
    case "flycheck-history":
      return { ...state, own: { ...flycheck, everBegun: event.everBegun, pending: event.pending } };
    case "flycheck-requested":
      return {
        ...state,
        pullsSent: state.pullsSent - flycheck.barriers,
        own: { ...flycheck, pending: true, barriers: 0, pullStale: flycheck.pullStale || state.pullInFlight },
      };
    case "flycheck-publish":
      return event.uri === state.target.uri ? { ...state, own: { ...flycheck, published: event.diagnostics } } : state;
    case "pull-answer": {
      if (event.uri !== state.target.uri || !state.pullInFlight) return state;
      // An answer that is no barrier behind a finished run is asked again, and not counted.
      if (flycheck.pullStale || !flycheckDone(state)) {
        return { ...state, pullInFlight: false, pullsSent: state.pullsSent - 1, own: { ...flycheck, pullStale: false } };
      }
      if (event.report.kind !== "full") return { ...state, pullInFlight: false };
      const barriers = flycheck.barriers + 1;
      if (barriers < FLYCHECK_BARRIERS) return { ...state, pullInFlight: false, own: { ...flycheck, barriers } };
      return { ...state, pullInFlight: false, outcome: { kind: "settled", pull: event.report.items, push: flycheck.published } };
    }
    default:
      return null;
  }
}

/** What the strategy says for a synced, unsettled wait; `pull` is bounded by the common rule. */
function decideFlycheck(state: FlycheckState): Extract<SettleDecision, { kind: "wait" | "pull" | "flycheck" }> {
  const flycheck = state.own;
  if (!flycheck.quiescent || state.pullInFlight) return { kind: "wait" };
  if (!flycheck.begunAfterSync) {
    // Before rust-analyzer's own first run, which it starts once quiescent, asking would race it.
    return flycheck.everBegun && !flycheck.pending ? { kind: "flycheck" } : { kind: "wait" };
  }
  return flycheckDone(state) ? { kind: "pull" } : { kind: "wait" };
}

/** A run began after the sync, none runs now, and none asked for is still to begin. */
function flycheckDone(state: FlycheckState): boolean {
  return state.own.begunAfterSync && !state.own.pending && ![...state.running].some(isFlycheckToken);
}

/** The strategy, as rust-analyzer's adapter gives it to the settle rule. */
export const FLYCHECK_SETTLE: OwnSettleStrategy<FlycheckProgress> = {
  name: "flycheck",
  start: NO_FLYCHECK_YET,
  step: stepFlycheck,
  decide: decideFlycheck,
};
