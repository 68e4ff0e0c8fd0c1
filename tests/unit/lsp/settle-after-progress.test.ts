import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { settleOver, type SettleEvent } from "../../../src/lsp/settle-rule.js";

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

describe("settle_after_progress", () => {
  test("a publish made while progress ran is provisional: not settled at the scan's end, settled by the one after", () => {
    const target = { uri: URI, version: 1, pullStatic: false, settleAfterProgress: true };
    expect(settleOver(target, BIOME_START)).toEqual({ kind: "wait" });
    expect(settleOver(target, [...BIOME_START, REAL_PUBLISH])).toEqual({ kind: "settled", pull: null, push: [FINDING] });
  });

  test("without it, the provisional empty publish would settle as clean (why Biome's profile sets it)", () => {
    const target = { uri: URI, version: 1, pullStatic: false };
    expect(settleOver(target, BIOME_START)).toEqual({ kind: "settled", pull: null, push: [] });
  });
});
