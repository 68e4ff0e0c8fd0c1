import type { Diagnostic } from "vscode-languageserver-protocol";
import type { OwnSettleStrategy, SettleDecision, SettleEvent, SettleState } from "../../lsp/settle-state.js";

/**
 * The settle rule's `cargo-run` strategy (bacon-ls), pure like the rule. bacon-ls publishes only
 * what a `cargo check` run found, at the run's end, and reads the files on disk: a document's sync
 * tells it nothing, and a publish at hand may be a run's from before the file changed. So once
 * synced, the wait asks for a run (its adapter sends a didSave, which bacon-ls answers with one),
 * and is settled when a run begun after that request has ended "done" (its publishes are sent
 * before its progress ends), no run is running, and no run requested is still to begin. The file's
 * findings are its last published set (none published: none found). A run cancelled by a newer
 * one or superseded publishes nothing, and settles nothing. A run in which cargo itself failed
 * (an unparsable or refused manifest) publishes nothing either, and no run after it would find
 * more: with none running and none to begin, the file is settled as not checked, with cargo's
 * reason, unless a run has ended done since. docs/contributors/adapters.md says why it is sound.
 */

/** What the cargo-run strategy tracks of one wait. */
interface CargoRunProgress {
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
  /** Why cargo failed in a run begun after the last request heard (no findings came of it), or null. */
  readonly failed: string | null;
  /** The document's last published set. */
  readonly published: readonly Diagnostic[];
}

type CargoRunState = SettleState<CargoRunProgress>;

const NO_CARGO_RUN_YET: CargoRunProgress = {
  asked: false,
  requested: false,
  pending: 0,
  running: new Set(),
  done: false,
  begunAfterRequest: new Set(),
  failed: null,
  published: [],
};

/** Folds an event the strategy reads its own way; null leaves it to the common rule. */
function stepCargoRun(state: CargoRunState, event: SettleEvent): CargoRunState | null {
  const run = state.own;
  const next = (changes: Partial<CargoRunProgress>): CargoRunState => ({ ...state, own: { ...run, ...changes } });
  switch (event.type) {
    case "build-run-history":
      return next({ running: new Set(event.running), pending: event.pending });
    case "build-run-asked":
      return next({ asked: true });
    case "build-run-requested":
      // Any wait's request sent after the sync covers it (one didSave serves every wait synced
      // before it); one sent before covers nothing of it.
      return next({ pending: run.pending + 1, requested: run.requested || state.synced });
    case "build-run": {
      if (event.kind === "begin") {
        const begunAfterRequest = run.requested ? new Set([...run.begunAfterRequest, event.token]) : run.begunAfterRequest;
        return next({ pending: Math.max(0, run.pending - 1), running: new Set([...run.running, event.token]), begunAfterRequest });
      }
      const running = new Set(run.running);
      running.delete(event.token);
      const ours = run.begunAfterRequest.has(event.token);
      const failed = event.kind === "failed" && ours ? event.reason : run.failed;
      return next({ running, done: run.done || (event.kind === "done" && ours), failed });
    }
    case "build-run-publish":
      return event.uri === state.target.uri ? next({ published: event.diagnostics }) : state;
    // Its publishes are read as `build-run-publish` (whatever their version), and its progress as runs.
    case "publish":
    case "progress":
      return state;
    default:
      return null;
  }
}

/** What the strategy says for a synced, unsettled wait. */
function decideCargoRun(state: CargoRunState): Extract<SettleDecision, { kind: "wait" | "settled" | "build-run" }> {
  const run = state.own;
  if (!run.requested) return run.asked ? { kind: "wait" } : { kind: "build-run" };
  if (run.pending > 0 || run.running.size > 0) return { kind: "wait" };
  if (run.done) return { kind: "settled", pull: null, push: run.published };
  if (run.failed !== null) return { kind: "settled", pull: null, push: [], notChecked: run.failed };
  return { kind: "wait" };
}

/** The strategy, as bacon-ls's adapter gives it to the settle rule. */
export const CARGO_RUN_SETTLE: OwnSettleStrategy<CargoRunProgress> = {
  name: "cargo-run",
  start: NO_CARGO_RUN_YET,
  step: stepCargoRun,
  decide: decideCargoRun,
};
