// Which kept answers a change on disk reaches, and what finding that out asks of the server: the
// importers of a file whose declaration shape changed, walked until the bound of questions says
// asking every file again costs less — known before a question is wasted when the files waiting
// to be asked already pass it.
import { describe, expect, test } from "vitest";
import { applyDiskChanges } from "../../../src/disk-sync/apply-disk-changes.js";
import { ProjectState } from "../../../src/disk-sync/project-state.js";
import { Deadline } from "../../../src/contract/deadline.js";
import { reachByShapes } from "../../../src/languages/typescript/change-reach.js";
import type { LspClient } from "../../../src/lsp/lsp-client.js";

/** `importers` by file; `changed` is the file changed on disk; only `/f0.ts`'s shape changes with it. */
function setup(importers: Record<string, string[]>, changed = "/f0.ts") {
  const asked: string[] = [];
  let told = false;
  const queries = {
    shapeBefore: async () => "before",
    shapeAfter: async (path: string) => (path === "/f0.ts" && told ? "after" : "before"),
    importers: async (path: string) => {
      // Which files import one is asked of the program that heard of the change.
      expect(told).toBe(true);
      asked.push(path);
      return importers[path] ?? [];
    },
  };
  const client = {
    adapter: { watchedFiles: /\.ts$/, projectModel: { answersUnopened: true, changeReach: () => reachByShapes(queries) } },
    connectedAtMs: 0,
    documents: { lastSentFor: () => 0, get: () => undefined },
    notifyWatchedFiles: async () => {
      told = true;
    },
  } as unknown as LspClient;
  const state = new ProjectState(client);
  const files = new Set(["/f0.ts", ...Object.keys(importers), ...Object.values(importers).flat()]);
  for (const file of files) state.answers.set(file, { diagnostics: [] });
  const apply = () => applyDiskChanges(client, state, [{ path: changed, kind: "changed" }], { deadline: Deadline.in(10_000) });
  return { asked, state, apply };
}

describe("applyDiskChanges", () => {
  test("a changed shape reaches its importers, transitively, and no other file", async () => {
    const { asked, state, apply } = setup({ "/f0.ts": ["/f1.ts"], "/f1.ts": ["/f2.ts"], "/other.ts": ["/far.ts"] });
    await apply();
    expect([...state.answers.keys()].sort()).toEqual(["/far.ts", "/other.ts"]);
    // Each file reached, once, the changed one's after the server heard of the change.
    expect(asked.sort()).toEqual(["/f0.ts", "/f1.ts", "/f2.ts"]);
  });

  test("an edit that keeps the shape asks for no importers at all, and reaches only its file", async () => {
    const { asked, state, apply } = setup({ "/f1.ts": ["/f2.ts"], "/f0.ts": ["/f1.ts"] }, "/f1.ts");
    await apply();
    expect(asked).toEqual([]);
    expect([...state.answers.keys()].sort()).toEqual(["/f0.ts", "/f2.ts"]);
  });

  test("importers past the bound drop every kept answer, with no question beyond what shows it", async () => {
    const direct = Array.from({ length: 40 }, (_, i) => `/g${i}.ts`);
    const { asked, state, apply } = setup({ "/f0.ts": direct });
    await apply();
    expect(state.answers.size).toBe(0);
    expect(asked).toEqual(["/f0.ts"]);
  });
});
