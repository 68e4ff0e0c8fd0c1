import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { CARGO_RUN_SETTLE } from "../../../src/languages/bacon-ls/settle-cargo-run.js";
import { decideSettle, settleOver, startSettle, stepSettle } from "../../../src/lsp/settle-rule.js";
import type { SettleDecision, SettleEvent, SettleTarget } from "../../../src/lsp/settle-state.js";

// bacon-ls's cargo runs (settle-cargo-run.ts): a run asked for after the sync must end "done",
// with none running and none asked for still to begin; the file's last published set answers.
const A = "file:///w/src/lib.rs";
const B = "file:///w/src/brew.rs";
const target: SettleTarget = { uri: A, version: 1, pullStatic: false, strategy: CARGO_RUN_SETTLE };
const d = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message });
const sync: SettleEvent = { type: "sync", uri: A, version: 1 };
const asked: SettleEvent = { type: "build-run-asked" };
const requested: SettleEvent = { type: "build-run-requested" };
const begin = (token: number): SettleEvent => ({ type: "build-run", token, kind: "begin" });
const done = (token: number): SettleEvent => ({ type: "build-run", token, kind: "done" });
const stopped = (token: number): SettleEvent => ({ type: "build-run", token, kind: "stopped" });
const failed = (token: number, reason: string): SettleEvent => ({ type: "build-run", token, kind: "failed", reason });
const published = (uri: string, ...items: Diagnostic[]): SettleEvent => ({ type: "build-run-publish", uri, diagnostics: items });
const history = (running: number[], pending = 0): SettleEvent => ({ type: "build-run-history", running, pending });

function decisions(events: readonly SettleEvent[]): SettleDecision["kind"][] {
  let state = startSettle(target);
  return events.map((event) => decideSettle((state = stepSettle(state, event))).kind);
}

describe("the cargo-run rule", () => {
  test("asks for a run once synced, and settles on the file's set when that run ends done", () => {
    const events = [history([]), published(A), sync, asked, requested, begin(2), published(A, d("E0308")), done(2)];
    expect(decisions(events)).toEqual(["wait", "wait", "build-run", "wait", "wait", "wait", "wait", "settled"]);
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: null, push: [d("E0308")] });
  });

  test("a file the run never published has no findings: its set is the last one published, or none", () => {
    expect(settleOver(target, [history([]), published(A), sync, asked, requested, begin(2), published(B, d("other")), done(2)])).toEqual({
      kind: "settled",
      pull: null,
      push: [],
    });
    // Published clean by an earlier run, not again: still its last set.
    expect(settleOver(target, [history([]), published(A, d("old")), sync, asked, requested, begin(2), done(2)])).toEqual({
      kind: "settled",
      pull: null,
      push: [d("old")],
    });
  });

  test("a run that began before the request, or was requested before the sync, settles nothing", () => {
    // The start-up run, begun before the sync, ends done: not the file as synced.
    expect(decisions([history([1]), sync, done(1)])).toEqual(["wait", "build-run", "build-run"]);
    // Another wait's request sent before this sync covers nothing of it; this one asks again.
    expect(decisions([history([]), requested, begin(2), sync, done(2)])).toEqual(["wait", "wait", "wait", "build-run", "build-run"]);
    // Begun after the sync but before the request: its run may have read the disk before the sync.
    expect(decisions([history([]), sync, asked, begin(2), done(2), requested])).toEqual(["wait", "build-run", "wait", "wait", "wait", "wait"]);
  });

  test("another wait's request sent after the sync covers this one: one run for both", () => {
    expect(decisions([history([]), sync, requested, begin(2), done(2)])).toEqual(["wait", "build-run", "wait", "wait", "settled"]);
  });

  test("a run cancelled by a newer one publishes nothing and settles nothing; the newer one's done does", () => {
    const events = [history([]), sync, asked, requested, begin(2), requested, stopped(2), begin(3), published(A, d("new")), done(3)];
    expect(decisions(events)).toEqual(["wait", "build-run", "wait", "wait", "wait", "wait", "wait", "wait", "wait", "settled"]);
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: null, push: [d("new")] });
  });

  test("a done run with another running, or with a request still to begin, waits for that one", () => {
    expect(decisions([history([]), sync, asked, requested, begin(2), begin(3), done(2)]).at(-1)).toBe("wait");
    expect(decisions([history([]), sync, asked, requested, begin(2), requested, done(2)]).at(-1)).toBe("wait");
    // A request from before the wait started, not begun yet, also holds it: two requests, two runs.
    expect(decisions([history([], 1), sync, asked, requested, begin(2), done(2)]).at(-1)).toBe("wait");
    expect(decisions([history([], 1), sync, asked, requested, begin(2), stopped(2), begin(3), done(3)]).at(-1)).toBe("settled");
  });

  test("a run in which cargo failed settles the file as not checked, with cargo's reason: never clean, never a wait to the deadline", () => {
    const why = "cargo check failed: cargo exited with exit status: 101: unclosed table, expected `]`";
    const events = [history([]), published(A, d("old")), sync, asked, requested, begin(2), failed(2, why)];
    expect(decisions(events).at(-1)).toBe("settled");
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: null, push: [], notChecked: why });
    // With another run still to come, that run answers: done since the failure, its findings.
    const later = [history([]), sync, asked, requested, begin(2), requested, failed(2, why), begin(3), published(A, d("new")), done(3)];
    expect(decisions(later).slice(-4)).toEqual(["wait", "wait", "wait", "settled"]);
    expect(settleOver(target, later)).toEqual({ kind: "settled", pull: null, push: [d("new")] });
    // A failed run begun before the request says nothing of the file as synced.
    expect(decisions([history([2]), sync, asked, requested, failed(2, why)]).at(-1)).toBe("wait");
  });

  test("a run that stops without done (cancelled, superseded) is no answer: never a clean", () => {
    expect(decisions([history([]), sync, asked, requested, begin(2), stopped(2)]).at(-1)).toBe("wait");
    expect(settleOver(target, [history([]), sync, asked, requested, begin(2), stopped(2), { type: "deadline" }])).toEqual({
      kind: "failed",
      reason: "deadline",
    });
  });

  test("publishes and progress of the common rule are not read: a publish at hand is no answer", () => {
    const publish: SettleEvent = { type: "publish", uri: A, version: null, diagnostics: [] };
    expect(decisions([history([]), sync, publish, { type: "progress", token: 9, kind: "end" }])).toEqual(["wait", "build-run", "build-run", "build-run"]);
  });
});
