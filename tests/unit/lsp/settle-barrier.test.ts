import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { decideSettle, settleOver, startSettle, stepSettle } from "../../../src/lsp/settle-rule.js";
import type { SettleDecision, SettleEvent, SettleTarget } from "../../../src/lsp/settle-state.js";

// gopls (settle-rule.ts, "Barrier"): main.go's diagnostics depend on brew.go, whose change may be
// synced while main.go's old publish is at hand and no progress has begun yet.
const MAIN = "file:///w/cmd/main.go";
const target: SettleTarget = { uri: MAIN, version: 1, pullStatic: false, strategy: "barrier" };
const d = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message });
const sync: SettleEvent = { type: "sync", uri: MAIN, version: 1 };
const anySync: SettleEvent = { type: "session-sync" };
const old: SettleEvent = { type: "publish", uri: MAIN, version: 1, diagnostics: [d("old")] };
const fresh: SettleEvent = { type: "publish", uri: MAIN, version: 1, diagnostics: [d("old"), d("fresh")] };
const begin: SettleEvent = { type: "progress", token: "diagnosing", kind: "begin" };
const end: SettleEvent = { type: "progress", token: "diagnosing", kind: "end" };
const sent: SettleEvent = { type: "barrier-sent" };
const answered: SettleEvent = { type: "barrier-answer" };

function decisions(events: readonly SettleEvent[]): SettleDecision["kind"][] {
  let state = startSettle(target);
  return events.map((event) => decideSettle((state = stepSettle(state, event))).kind);
}

describe("the barrier rule", () => {
  test("a publish at hand does not settle before a barrier covers the syncs; the progress begun meanwhile is awaited", () => {
    // brew.go's didChange went out before the wait (and main.go's sync): gopls began the progress
    // of its diagnosis before it answered the barrier.
    const events = [sync, sent, old, begin, answered, fresh, end];
    expect(decisions(events)).toEqual(["barrier", "wait", "wait", "wait", "wait", "wait", "settled"]);
    expect(settleOver(target, events)).toEqual({ kind: "settled", pull: null, push: [d("old"), d("fresh")] });
  });

  test("with nothing new, the publish at hand settles right after the barrier's answer", () => {
    expect(decisions([sync, sent, old, answered])).toEqual(["barrier", "wait", "wait", "settled"]);
  });

  test("a sync during the barrier asks for another once it is answered", () => {
    const events = [sync, sent, old, anySync, answered, sent, answered];
    expect(decisions(events)).toEqual(["barrier", "wait", "wait", "wait", "barrier", "wait", "settled"]);
  });

  test("under the standard strategy, no barrier: the push rule waits out its quiet window alone", () => {
    const standard = { ...target, strategy: "standard" as const, quietMs: 3000 };
    expect(settleOver(standard, [sync, old, anySync])).toEqual({ kind: "quiet", mark: 1 });
    expect(settleOver(standard, [sync, old, anySync, { type: "quiet", mark: 1 }])).toEqual({ kind: "settled", pull: null, push: [d("old")] });
  });
});
