import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { FLYCHECK_SETTLE } from "../../../src/languages/rust-analyzer/settle-flycheck.js";
import { decideSettle, settleOver, startSettle, stepSettle } from "../../../src/lsp/settle-rule.js";
import type { SettleDecision, SettleEvent, SettleTarget } from "../../../src/lsp/settle-state.js";

// rust-analyzer's two sources (settle-rule.ts, "Flycheck"): its own analysis, pulled once it is
// quiescent, and cargo check runs under progress tokens rust-analyzer/flycheck/N.
const A = "file:///w/src/lib.rs";
const target: SettleTarget = { uri: A, version: 1, pullStatic: true, strategy: FLYCHECK_SETTLE };
const d = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message });
const sync: SettleEvent = { type: "sync", uri: A, version: 1 };
const quiescent: SettleEvent = { type: "status", quiescent: true };
const begin: SettleEvent = { type: "progress", token: "rust-analyzer/flycheck/0", kind: "begin" };
const end: SettleEvent = { type: "progress", token: "rust-analyzer/flycheck/0", kind: "end" };
const indexing = (kind: "begin" | "end"): SettleEvent => ({ type: "progress", token: "rustAnalyzer/Indexing", kind });
const flycheckSet = (...items: Diagnostic[]): SettleEvent => ({ type: "flycheck-publish", uri: A, diagnostics: items });
const pullSent: SettleEvent = { type: "pull-sent", uri: A };
const answer = (...items: Diagnostic[]): SettleEvent => ({ type: "pull-answer", uri: A, report: { kind: "full", items } });

function decisions(events: readonly SettleEvent[]): SettleDecision["kind"][] {
  let state = startSettle(target);
  return events.map((event) => decideSettle((state = stepSettle(state, event))).kind);
}

describe("the flycheck rule", () => {
  test("a fresh session: waits for quiescence and rust-analyzer's own first run, then pulls behind its end", () => {
    const events = [
      sync,
      indexing("begin"),
      quiescent,
      indexing("end"),
      begin,
      flycheckSet(d("E0308")),
      end,
      pullSent,
      answer(d("native")),
      pullSent,
      answer(d("native")),
    ];
    expect(decisions(events)).toEqual(["wait", "wait", "wait", "wait", "wait", "wait", "pull", "wait", "pull", "wait", "settled"]);
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: [d("native")], push: [d("E0308")] });
  });

  test("a run's last publishes after its progress end are still taken: the pulls' answers are the barrier", () => {
    const events = [sync, quiescent, begin, end, pullSent, flycheckSet(d("late")), answer(), pullSent, answer()];
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: [], push: [d("late")] });
  });

  test("a publish rust-analyzer's worker pool sent after the first barrier's answer is still taken", () => {
    // The run's clear and its findings landed in two turns; the findings' publish came late.
    const events = [sync, quiescent, begin, flycheckSet(), end, pullSent, answer(), flycheckSet(d("E0308")), pullSent, answer()];
    expect(decisions(events)).toEqual(["wait", "wait", "wait", "wait", "pull", "wait", "pull", "pull", "wait", "settled"]);
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: [], push: [d("E0308")] });
  });

  test("a run that begins between the two barriers voids the first: two more answers behind its end", () => {
    const events = [sync, quiescent, begin, end, pullSent, answer(), begin, end, pullSent, answer(), pullSent, answer()];
    expect(decisions(events)).toEqual(["wait", "wait", "wait", "pull", "wait", "pull", "wait", "pull", "wait", "pull", "wait", "settled"]);
  });

  test("no publish for the file at all means no flycheck findings", () => {
    const events = [sync, quiescent, begin, end, pullSent, answer(d("native")), pullSent, answer(d("native"))];
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: [d("native")], push: [] });
  });

  test("a file whose set was published before the sync keeps it (rust-analyzer does not publish it again on open)", () => {
    const history: SettleEvent = { type: "flycheck-history", everBegun: true, pending: false };
    const events = [flycheckSet(d("before")), history, quiescent, sync];
    expect(decideSettle(events.reduce(stepSettle, startSettle(target))).kind).toBe("flycheck");
    // The run it asked for republishes nothing for the file (unchanged): the earlier set stands.
    expect(settleOver(target, [...events, { type: "flycheck-requested" }, begin, end, pullSent, answer(), pullSent, answer()])).toEqual({
      kind: "settled",
      pull: [],
      push: [d("before")],
    });
  });

  test("after an earlier run, a run that began after the sync is asked for, once, and awaited", () => {
    const history: SettleEvent = { type: "flycheck-history", everBegun: true, pending: false };
    const events = [history, quiescent, sync, { type: "flycheck-requested" } as SettleEvent, begin, end, pullSent, answer(), pullSent, answer()];
    expect(decisions(events)).toEqual(["wait", "wait", "flycheck", "wait", "wait", "pull", "wait", "pull", "wait", "settled"]);
  });

  test("a run that began before the sync does not count: a new one is asked for", () => {
    const events = [quiescent, begin, sync];
    expect(decideSettle(events.reduce(stepSettle, startSettle(target))).kind).toBe("flycheck");
  });

  test("a run cancelled by another request does not settle: the end between the two runs is no end", () => {
    const events = [sync, quiescent, begin, { type: "flycheck-requested" } as SettleEvent, end, begin, end];
    expect(decisions(events)).toEqual(["wait", "wait", "wait", "wait", "wait", "wait", "pull"]);
  });

  test("a pull answered while a new run began is asked again, and not counted against the pull limit", () => {
    const events = [sync, quiescent, begin, end, pullSent, begin, answer(d("stale")), end, pullSent, answer(d("fresh")), pullSent, answer(d("fresh"))];
    expect(decisions(events)).toEqual(["wait", "wait", "wait", "pull", "wait", "wait", "wait", "pull", "wait", "pull", "wait", "settled"]);
    expect(settleOver(target, events)).toMatchObject({ pull: [d("fresh")] });
  });

  test("never settles before quiescence, whatever the flycheck did", () => {
    expect(settleOver(target, [sync, begin, end])).toEqual({ kind: "wait" });
  });

  test("the deadline and a closed connection fail the wait", () => {
    expect(settleOver(target, [sync, quiescent, begin, { type: "deadline" }])).toEqual({ kind: "failed", reason: "deadline" });
    expect(settleOver(target, [sync, { type: "close" }])).toEqual({ kind: "failed", reason: "closed" });
  });
});
