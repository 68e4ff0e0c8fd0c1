import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { settleOver } from "../../../src/lsp/settle-rule.js";
import type { SettleEvent } from "../../../src/lsp/settle-state.js";

const URI = "file:///w/lint.ts";
const FINDING: Diagnostic = { range: { start: { line: 2, character: 2 }, end: { line: 2, character: 11 } }, message: "debugger", severity: 1 };

/** Biome's start as a push-only server shows it: scan begins, an empty publish for version 1, scan ends, the real publish. */
const BIOME_START: SettleEvent[] = [
  { type: "sync", uri: URI, version: 1 },
  { type: "progress", token: "scan", kind: "begin" },
  { type: "publish", uri: URI, version: 1, diagnostics: [] },
  { type: "progress", token: "scan", kind: "end" },
];
const REAL_PUBLISH: SettleEvent = { type: "publish", uri: URI, version: 1, diagnostics: [FINDING] };

describe("the after-progress strategy", () => {
  test("a publish made while progress ran is provisional: not settled at the scan's end, settled by the one after", () => {
    const target = { uri: URI, version: 1, pullStatic: false, strategy: "after-progress" as const };
    expect(settleOver(target, BIOME_START)).toEqual({ kind: "wait" });
    expect(settleOver(target, [...BIOME_START, REAL_PUBLISH])).toEqual({ kind: "settled", pull: null, push: [FINDING] });
  });

  test("without it, the provisional empty publish would settle as clean once the standard rule's quiet window passed before the real publish (why Biome's profile sets it)", () => {
    const target = { uri: URI, version: 1, pullStatic: false, quietMs: 3000 };
    expect(settleOver(target, [...BIOME_START, { type: "quiet", mark: 3 }])).toEqual({ kind: "settled", pull: null, push: [] });
  });
});

describe("the after-progress strategy with pull (the client offers pull by registration, and Biome registers it)", () => {
  const target = { uri: URI, version: 1, pullStatic: true, strategy: "after-progress" as const };
  const pulled = (items: Diagnostic[]): SettleEvent => ({ type: "pull-answer", uri: URI, report: { kind: "full", items } });

  test("no pull while the scan runs; an answer given while it ran is provisional; the pull after it settles", () => {
    const scanning: SettleEvent[] = [
      { type: "progress", token: "scan", kind: "begin" },
      { type: "sync", uri: URI, version: 1 },
    ];
    expect(settleOver(target, scanning)).toEqual({ kind: "wait" });
    const ended: SettleEvent[] = [{ type: "sync", uri: URI, version: 1 }];
    expect(settleOver(target, ended)).toEqual({ kind: "pull" });
    // A pull sent before the scan began, answered (empty) while it ran: asked again after it.
    const raced: SettleEvent[] = [...ended, { type: "pull-sent", uri: URI }, { type: "progress", token: "scan", kind: "begin" }, pulled([])];
    expect(settleOver(target, raced)).toEqual({ kind: "wait" });
    const after: SettleEvent[] = [...raced, { type: "progress", token: "scan", kind: "end" }];
    expect(settleOver(target, after)).toEqual({ kind: "pull" });
    expect(settleOver(target, [...after, { type: "pull-sent", uri: URI }, pulled([FINDING])])).toEqual({ kind: "settled", pull: [FINDING], push: null });
  });
});
