import { describe, expect, test } from "vitest";
import { ProjectState } from "../../../src/disk-sync/project-state.js";
import type { LspClient } from "../../../src/lsp/lsp-client.js";

const client = { adapter: { answersManyFiles: false, watchedFiles: /\.ts$/ }, connectedAtMs: 0 } as unknown as LspClient;

describe("ProjectState.setAsideAnswers", () => {
  test("empties the kept answers, and puts back exactly those, dropping any kept in between", () => {
    const state = new ProjectState(client);
    state.answers.set("/a.ts", { diagnostics: [] });
    state.rendered.set("/a.ts", { answer: { diagnostics: [] }, uri: "file:///a.ts", text: "a", diagnostics: [] });
    state.notes.set("/b.ts", "noted");
    const before = state.generation;
    const putBack = state.setAsideAnswers();
    expect([state.answers.size, state.rendered.size, state.notes.size]).toEqual([0, 0, 0]);
    expect(state.generation).toBe(before + 1);

    state.answers.set("/preview.ts", { diagnostics: [] });
    putBack();
    expect([...state.answers.keys()]).toEqual(["/a.ts"]);
    expect([...state.rendered.keys()]).toEqual(["/a.ts"]);
    expect([...state.notes.keys()]).toEqual(["/b.ts"]);
    expect(state.generation).toBe(before + 2);
  });
});
