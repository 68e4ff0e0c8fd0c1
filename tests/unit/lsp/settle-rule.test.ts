import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { decideSettle, MAX_PULLS, settleOver, startSettle, stepSettle } from "../../../src/lsp/settle-rule.js";
import type { SettleDecision, SettleEvent, SettleTarget } from "../../../src/lsp/settle-state.js";

const TIMELINES = join(import.meta.dirname, "../../fixtures/settle-timelines");

interface Timeline {
  readonly pull_offered: boolean;
  readonly events: readonly SettleEvent[];
}

function timeline(name: string): Timeline {
  return JSON.parse(readFileSync(join(TIMELINES, `${name}.json`), "utf8")) as Timeline;
}

/** The rule's decision after each event of `events`, for one document. */
function decisions(target: SettleTarget, events: readonly SettleEvent[]): SettleDecision[] {
  let state = startSettle(target);
  return events.map((event) => decideSettle((state = stepSettle(state, event))));
}

/** `events`, then the quiet window passing after the last of them (its mark: what the server said). */
function quietAfter(events: readonly SettleEvent[]): SettleEvent[] {
  const mark = events.filter((event) => event.type === "publish" || event.type === "progress").length;
  return [...events, { type: "quiet", mark }];
}

function uris(events: readonly SettleEvent[]): string[] {
  return events.flatMap((event) => (event.type === "sync" ? [event.uri] : []));
}

const diagnostic = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message });
const A = "file:///w/a.py";
const target: SettleTarget = { uri: A, version: 2, pullStatic: false, quietMs: 3000 };
const sync: SettleEvent = { type: "sync", uri: A, version: 2 };
const register: SettleEvent = { type: "register", id: "r1", method: "textDocument/diagnostic" };

describe("recorded: pyright 1.1.414, 13 modules of packaging opened at once, pull offered", () => {
  const { events, pull_offered } = timeline("pyright-pull-packaging");

  test.each(uris(events))("%s: not yet until its pull answer, then exactly that answer", (uri) => {
    expect(pull_offered).toBe(true);
    const seen = decisions({ uri, version: 1, pullStatic: false }, events);
    const answerAt = events.findIndex((event) => event.type === "pull-answer" && event.uri === uri);
    const answer = events[answerAt] as Extract<SettleEvent, { type: "pull-answer" }>;
    expect(answer.report.kind).toBe("full");
    expect(seen.findIndex((decision) => decision.kind === "settled")).toBe(answerAt);
    expect(seen[answerAt]).toEqual({ kind: "settled", pull: answer.report.kind === "full" ? answer.report.items : null, push: null });
    // Before pyright's registration (sent while it handled `initialized`, so ahead of any answer)
    // the rule neither pulls nor settles.
    const registeredAt = events.findIndex((event) => event.type === "register");
    expect(seen.slice(0, registeredAt).every((decision) => decision.kind === "wait")).toBe(true);
    expect(seen.slice(answerAt).every((decision) => decision.kind === "settled")).toBe(true);
  });
});

describe("recorded: the same, pull not offered (pyright pushes a first pass, then checks)", () => {
  const { events, pull_offered } = timeline("pyright-push-packaging");
  const final = (uri: string) =>
    events.filter((event): event is Extract<SettleEvent, { type: "publish" }> => event.type === "publish" && event.uri === uri).at(-1)!;

  test("the burst: each file's first publish is at its version and empty, before any progress begins", () => {
    expect(pull_offered).toBe(false);
    const firstProgress = events.findIndex((event) => event.type === "progress");
    for (const uri of uris(events)) {
      const first = events.findIndex((event) => event.type === "publish" && event.uri === uri);
      expect(first).toBeLessThan(firstProgress);
      expect(events[first]).toMatchObject({ version: 1, diagnostics: [] });
    }
    // …while the final sets are not empty: 138 diagnostics over the 13 files.
    expect(uris(events).reduce((sum, uri) => sum + final(uri).diagnostics.length, 0)).toBe(138);
  });

  test("so a publish at the version is no last publish: only the quiet window, which pyright's progress restarts, tells", () => {
    const uri = "file:///WORKSPACE/packaging/version.py";
    const firstProgress = events.findIndex((event) => event.type === "progress");
    const burst = events.slice(0, firstProgress);
    const pushTarget = { uri, version: 1, pullStatic: false, quietMs: 3000 };
    // Taken at once, the burst's empty set would be a false clean; the rule waits instead…
    const mark = burst.filter((event) => event.type === "publish").length;
    expect(settleOver(pushTarget, burst)).toEqual({ kind: "quiet", mark });
    // …and the window armed for the burst, passing after the progress began, settles nothing.
    expect(settleOver(pushTarget, [...events.slice(0, firstProgress + 1), { type: "quiet", mark }]).kind).not.toBe("settled");
    // Once the server is quiet after its last word, the answer is the file's final set.
    const open = events.filter((event) => event.type !== "close");
    expect(settleOver(pushTarget, quietAfter(open))).toEqual({ kind: "settled", pull: null, push: final(uri).diagnostics });
    expect(final(uri).diagnostics).toHaveLength(54);
    // With no window, a push never settles: not settled, never the first pass.
    expect(settleOver({ ...pushTarget, quietMs: 0 }, burst)).toEqual({ kind: "failed", reason: "no-last-publish" });
  });

  test.each(uris(timeline("pyright-push-packaging").events))("%s: with pull offered, no publish of the burst settles it", (uri) => {
    const seen = decisions({ uri, version: 1, pullStatic: false }, [register, ...events]);
    expect(seen.some((decision) => decision.kind === "settled")).toBe(false);
  });
});

describe("synthetic orders", () => {
  test("push before pull: the pull answer settles, a push for the version that came first is merged", () => {
    const push = [diagnostic("pushed")];
    const pull = [diagnostic("pulled")];
    const events: SettleEvent[] = [sync, { type: "publish", uri: A, version: 2, diagnostics: push }, register];
    expect(settleOver(target, quietAfter(events.slice(0, 2)))).toEqual({ kind: "settled", pull: null, push });
    expect(settleOver(target, events)).toEqual({ kind: "pull" });
    const sent: SettleEvent[] = [...events, { type: "pull-sent", uri: A }];
    expect(settleOver(target, sent)).toEqual({ kind: "wait" });
    expect(settleOver(target, [...sent, { type: "pull-answer", uri: A, report: { kind: "full", items: pull } }])).toEqual({ kind: "settled", pull, push });
  });

  test("a pull the server cancelled and asks for again (ty while files open) is sent again, uncounted, and never settles as clean", () => {
    const statically = { ...target, pullStatic: true };
    const cancelled: SettleEvent[] = [];
    for (let i = 0; i < MAX_PULLS + 2; i++) cancelled.push({ type: "pull-sent", uri: A }, { type: "pull-retrigger", uri: A });
    expect(settleOver(statically, [sync, ...cancelled])).toEqual({ kind: "pull" });
    // A retrigger of another document's pull, or with none in flight, changes nothing.
    expect(settleOver(statically, [sync, { type: "pull-sent", uri: A }, { type: "pull-retrigger", uri: "file:///w/b.py" }])).toEqual({ kind: "wait" });
    const items = [diagnostic("x")];
    expect(
      settleOver(statically, [sync, ...cancelled, { type: "pull-sent", uri: A }, { type: "pull-answer", uri: A, report: { kind: "full", items } }]),
    ).toEqual({
      kind: "settled",
      pull: items,
      push: null,
    });
  });

  test("a static diagnosticProvider pulls at once; an answer to another document does not count", () => {
    const statically = { ...target, pullStatic: true };
    expect(settleOver(statically, [sync])).toEqual({ kind: "pull" });
    const other: SettleEvent = { type: "pull-answer", uri: "file:///w/b.py", report: { kind: "full", items: [] } };
    expect(settleOver(statically, [sync, { type: "pull-sent", uri: A }, other])).toEqual({ kind: "wait" });
  });

  test("progress begin/end around a publish: settled only once the progress has ended", () => {
    const items = [diagnostic("x")];
    const events: SettleEvent[] = [
      sync,
      { type: "progress", token: "t", kind: "begin" },
      { type: "publish", uri: A, version: 2, diagnostics: items },
      { type: "progress", token: "t", kind: "report" },
      { type: "progress", token: "t", kind: "end" },
    ];
    expect(decisions(target, events).map((decision) => decision.kind)).toEqual(["wait", "wait", "wait", "wait", "quiet"]);
    expect(settleOver(target, quietAfter(events))).toEqual({ kind: "settled", pull: null, push: items });
  });

  test("progress that began before the sync holds the wait too", () => {
    const events: SettleEvent[] = [{ type: "progress", token: 7, kind: "begin" }, sync, { type: "publish", uri: A, version: 2, diagnostics: [] }];
    expect(settleOver(target, events)).toEqual({ kind: "wait" });
    expect(settleOver(target, quietAfter([...events, { type: "progress", token: 7, kind: "end" }]))).toEqual({ kind: "settled", pull: null, push: [] });
  });

  test("a stale version never settles, and withdraws an earlier candidate; the right one does", () => {
    const stale: SettleEvent = { type: "publish", uri: A, version: 1, diagnostics: [] };
    expect(settleOver(target, [sync, stale])).toEqual({ kind: "wait" });
    const right: SettleEvent = { type: "publish", uri: A, version: 2, diagnostics: [diagnostic("now")] };
    expect(settleOver(target, [sync, { type: "progress", token: "t", kind: "begin" }, right, stale, { type: "progress", token: "t", kind: "end" }])).toEqual({
      kind: "wait",
    });
    expect(settleOver(target, quietAfter([sync, stale, right]))).toEqual({ kind: "settled", pull: null, push: [diagnostic("now")] });
  });

  test("publishes before our sync never describe it, even a version-less one", () => {
    const before: SettleEvent = { type: "publish", uri: A, version: null, diagnostics: [] };
    expect(settleOver(target, [before, sync])).toEqual({ kind: "wait" });
    expect(settleOver(target, quietAfter([sync, before]))).toEqual({ kind: "settled", pull: null, push: [] });
  });

  test("a close fails the wait, before or after a pull was sent, and nothing settles it afterwards", () => {
    expect(settleOver(target, [sync, { type: "close" }])).toEqual({ kind: "failed", reason: "closed" });
    const events: SettleEvent[] = [sync, register, { type: "pull-sent", uri: A }, { type: "close" }];
    expect(settleOver(target, [...events, { type: "pull-answer", uri: A, report: { kind: "full", items: [] } }])).toEqual({
      kind: "failed",
      reason: "closed",
    });
  });

  test("the deadline fails the wait; an answer after it does not turn it clean", () => {
    const events: SettleEvent[] = [sync, register, { type: "pull-sent", uri: A }, { type: "deadline" }];
    expect(settleOver(target, events)).toEqual({ kind: "failed", reason: "deadline" });
    expect(settleOver(target, [...events, { type: "pull-answer", uri: A, report: { kind: "full", items: [] } }])).toEqual({
      kind: "failed",
      reason: "deadline",
    });
  });

  test("`unchanged` with no previous result is no answer: pulled again, at most MAX_PULLS times", () => {
    const round: SettleEvent[] = [
      { type: "pull-sent", uri: A },
      { type: "pull-answer", uri: A, report: { kind: "unchanged" } },
    ];
    expect(settleOver(target, [sync, register, ...round])).toEqual({ kind: "pull" });
    const all = [sync, register, ...Array.from({ length: MAX_PULLS }, () => round).flat()];
    expect(settleOver(target, all)).toEqual({ kind: "failed", reason: "no-full-answer" });
  });

  test("a registration withdrawn before any pull falls back to push", () => {
    const events: SettleEvent[] = [sync, register, { type: "unregister", id: "r1" }, { type: "publish", uri: A, version: 2, diagnostics: [] }];
    expect(settleOver(target, quietAfter(events))).toEqual({ kind: "settled", pull: null, push: [] });
  });
});
