import { describe, expect, test } from "vitest";
import { ProjectState } from "../../../src/disk-sync/project-state.js";
import type { LspClient } from "../../../src/lsp/lsp-client.js";

const client = { adapter: { projectModel: null, watchedFiles: /\.ts$/ }, connectedAtMs: 0 } as unknown as LspClient;

describe("ProjectState.setAsideAnswers", () => {
  test("empties the kept answers, and puts back exactly those, dropping any kept in between", () => {
    const state = new ProjectState(client);
    state.answers.set("/a.ts", { diagnostics: [] });
    state.rendered.set("/a.ts", { answer: { diagnostics: [] }, uri: "file:///a.ts", text: "a", diagnostics: [] });
    state.notes.set("/b.ts", "noted");
    const before = state.generation;
    const { putBack } = state.setAsideAnswers();
    expect([state.answers.size, state.rendered.size, state.notes.size]).toEqual([0, 0, 0]);
    expect(state.generation).toBe(before + 1);

    state.answers.set("/preview.ts", { diagnostics: [] });
    putBack();
    expect([...state.answers.keys()]).toEqual(["/a.ts"]);
    expect([...state.rendered.keys()]).toEqual(["/a.ts"]);
    expect([...state.notes.keys()]).toEqual(["/b.ts"]);
    expect(state.generation).toBe(before + 2);
  });

  test("keeps meanwhile the answers of the files a preview cannot reach, and still puts back exactly the old ones", () => {
    const state = new ProjectState(client);
    for (const path of ["/a.ts", "/b.ts", "/c.ts"]) {
      const answer = { diagnostics: [] };
      state.answers.set(path, answer);
      state.rendered.set(path, { answer, uri: `file://${path}`, text: path, diagnostics: [] });
    }
    const kept = state.answers.get("/a.ts");
    const aside = state.setAsideAnswers();
    aside.keepUnreached(new Set(["/b.ts"]));
    expect([...state.answers.keys()]).toEqual(["/a.ts", "/c.ts"]);
    expect(state.answers.get("/a.ts")).toBe(kept);
    expect(state.keptText("/c.ts")).toBe("/c.ts");
    // An answer of the preview's program replaces a kept one only until the preview ends.
    state.answers.set("/b.ts", { diagnostics: [] });
    state.answers.set("/a.ts", { diagnostics: [] });
    aside.putBack();
    expect(state.answers.get("/a.ts")).toBe(kept);
    expect([...state.answers.keys()]).toEqual(["/a.ts", "/b.ts", "/c.ts"]);
  });
});
