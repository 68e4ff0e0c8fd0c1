import { describe, expect, test } from "vitest";
import { PushDiagnosticsStore } from "../../../src/lsp/push-diagnostics-store.js";

const warning = { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 3 } }, message: "bad" };

describe("PushDiagnosticsStore", () => {
  test("a server that publishes without versions is kept as it sends", () => {
    const store = new PushDiagnosticsStore();
    store.onPublish({ uri: "file:///a", diagnostics: [warning] });
    expect(store.get("file:///a")).toMatchObject({ version: null, diagnostics: [warning], sequence: 1 });
  });

  test("from a server that versions its publishes, an unversioned clear (of a closed document) is dropped", () => {
    const store = new PushDiagnosticsStore();
    expect(store.onPublish({ uri: "file:///a", version: 8, diagnostics: [warning] })).toBe(true);
    // clangd's answer to didClose of the earlier life, arriving after the reopen as version 8:
    // dropped, and reported as dropped so that no wait hears of it.
    expect(store.onPublish({ uri: "file:///a", diagnostics: [] })).toBe(false);
    expect(store.get("file:///a")).toMatchObject({ version: 8, diagnostics: [warning] });
    expect(store.currentSequence()).toBe(1);
  });
});
