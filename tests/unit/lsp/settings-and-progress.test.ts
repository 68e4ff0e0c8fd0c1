import { cclsAdapter } from "../../../src/languages/ccls/adapter.js";
import { describe, expect, test } from "vitest";
import { lookupSetting } from "../../../src/lsp/settings-lookup.js";
import type { MessageConnection } from "vscode-jsonrpc/node";
import { ProgressTracker } from "../../../src/lsp/progress-tracker.js";
import { handleServerRequests } from "../../../src/lsp/server-requests.js";
import { ServerEvents } from "../../../src/lsp/server-events.js";
import { DynamicRegistrations } from "../../../src/lsp/dynamic-registrations.js";
import { PushDiagnosticsStore } from "../../../src/lsp/push-diagnostics-store.js";
import { StderrTail } from "../../../src/sessions/stderr-tail.js";

describe("workspace/configuration answers", () => {
  const settings = { python: { analysis: { typeCheckingMode: "strict" } }, flag: false };
  test.each([
    [undefined, settings],
    ["", settings],
    ["python", settings.python],
    ["python.analysis", settings.python.analysis],
    ["python.analysis.typeCheckingMode", "strict"],
    ["flag", false],
    ["python.missing", null],
    ["nothing.at.all", null],
    ["flag.deeper", null],
    ["toString", null],
  ])("section %j", (section, expected) => {
    expect(lookupSetting(settings, section)).toEqual(expected);
  });
});

describe("work-done progress", () => {
  test("idle only when every begun token has ended; each value reports its kind", () => {
    const tracker = new ProgressTracker();
    const kinds = [
      tracker.onProgress("a", { kind: "begin", title: "index" }),
      tracker.onProgress(2, { kind: "begin", title: "load" }),
      tracker.onProgress("a", { kind: "report", percentage: 50 }),
    ];
    expect(tracker.runningTokens()).toEqual(["a", 2]);
    kinds.push(tracker.onProgress("a", { kind: "end" }));
    expect(tracker.isIdle()).toBe(false);
    kinds.push(tracker.onProgress(2, { kind: "end" }), tracker.onProgress("x", { something: "else" }));
    expect(kinds).toEqual(["begin", "begin", "report", "end", "end", null]);
    expect(tracker.isIdle()).toBe(true);
  });
});

describe("work-done progress: titles, and waiting for none to run", () => {
  test("the running titles, in the order they began; whenIdle resolves at the last end, and at once when idle", async () => {
    const tracker = new ProgressTracker();
    await tracker.whenIdle();
    tracker.onProgress("load", { kind: "begin", title: "Initializing JS/TS language features…" });
    tracker.onProgress("quiet", { kind: "begin" });
    tracker.onProgress("check", { kind: "begin", title: "cargo check" });
    expect(tracker.runningTitles()).toEqual(["Initializing JS/TS language features…", "cargo check"]);
    let idle = false;
    const waiting = tracker.whenIdle().then(() => (idle = true));
    tracker.onProgress("load", { kind: "end" });
    tracker.onProgress("quiet", { kind: "end" });
    await Promise.resolve();
    expect(idle).toBe(false);
    tracker.onProgress("check", { kind: "end" });
    await waiting;
    expect(tracker.runningTitles()).toEqual([]);
  });

  test("clear (the connection closed) ends every wait", async () => {
    const tracker = new ProgressTracker();
    tracker.onProgress("a", { kind: "begin", title: "a" });
    const waiting = tracker.whenIdle();
    tracker.clear();
    await waiting;
    expect(tracker.isIdle()).toBe(true);
  });

  test("a token the ccls adapter ignores (its index) is neither tracked nor told, and shows no work", () => {
    let onProgress: (params: { token: string; value: unknown }) => void = () => {};
    const connection = {
      onRequest: () => {},
      onNotification: () => {},
      onUnhandledProgress: (handler: typeof onProgress) => (onProgress = handler),
    } as unknown as MessageConnection;
    const progress = new ProgressTracker();
    const events = new ServerEvents();
    const told: string[] = [];
    events.subscribe((event) => told.push(event.type));
    let work = 0;
    handleServerRequests(connection, {
      settings: {},
      workspaceFolders: [],
      registrations: new DynamicRegistrations(),
      progress,
      pushDiagnostics: new PushDiagnosticsStore(),
      events,
      log: () => {},
      onPublish: () => {},
      onProgress: () => {},
      onWork: () => work++,
      ignoredProgress: cclsAdapter().ignoredProgress,
    });
    onProgress({ token: "index", value: { kind: "begin", title: "indexing" } });
    expect(progress.isIdle()).toBe(true);
    expect([told, work]).toEqual([[], 0]);
    onProgress({ token: "other", value: { kind: "begin", title: "loading" } });
    expect(progress.runningTitles()).toEqual(["loading"]);
    expect([told, work]).toEqual([["progress"], 1]);
  });
});

describe("stderr tail", () => {
  test("keeps the last lines, bounded in count and length, across chunk boundaries", () => {
    const tail = new StderrTail(3, 10);
    tail.append("one\ntw");
    tail.append("o\r\nthree\n\nfour is a long line\nfi");
    expect(tail.snapshot()).toEqual(["three", "four is a …", "fi"]);
  });
});
