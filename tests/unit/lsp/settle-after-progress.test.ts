import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { DynamicRegistrations } from "../../../src/lsp/dynamic-registrations.js";
import { settleDiagnostics } from "../../../src/lsp/features/diagnostics-settle.js";
import type { LspClient } from "../../../src/lsp/lsp-client.js";
import { ProgressTracker } from "../../../src/lsp/progress-tracker.js";
import { PushDiagnosticsStore } from "../../../src/lsp/push-diagnostics-store.js";

const URI = "file:///w/lint.ts";
const FINDING: Diagnostic = { range: { start: { line: 2, character: 2 }, end: { line: 2, character: 11 } }, message: "debugger", severity: 1 };

/** The parts of a client that the push settle rule reads, as Biome drives them right after start. */
function pushOnlyClient(settleAfterProgress: boolean) {
  const client = {
    capabilities: {},
    registrations: new DynamicRegistrations(),
    pushDiagnostics: new PushDiagnosticsStore(),
    progress: new ProgressTracker(),
    isClosed: false,
    settleAfterProgress,
    onClose: () => () => {},
  };
  // What server-requests.ts does with each publish: it notes whether progress was running.
  const publish = (diagnostics: Diagnostic[]) => client.pushDiagnostics.onPublish({ uri: URI, version: 1, diagnostics }, !client.progress.isIdle());
  return { client: client as unknown as LspClient, publish, progress: client.progress };
}

/** Biome's start: scan begins, an empty publish for version 1, scan ends, the real publish. */
function biomeStart(settleAfterProgress: boolean) {
  const { client, publish, progress } = pushOnlyClient(settleAfterProgress);
  const document = { uri: URI, version: 1, sentAfterSequence: 0 } as Parameters<typeof settleDiagnostics>[1];
  const settled = settleDiagnostics(client, document, { deadline: Deadline.in(5000) });
  progress.onProgress("scan", { kind: "begin", title: "Biome is scanning the project" });
  publish([]);
  progress.onProgress("scan", { kind: "end" });
  publish([FINDING]);
  return settled;
}

describe("settle_after_progress", () => {
  test("a publish made while progress ran is provisional: the one after the scan settles", async () => {
    expect(await biomeStart(true)).toEqual({ pull: null, push: [FINDING] });
  });

  test("without it, the provisional empty publish would settle as clean (why Biome's profile sets it)", async () => {
    expect(await biomeStart(false)).toEqual({ pull: null, push: [] });
  });
});
