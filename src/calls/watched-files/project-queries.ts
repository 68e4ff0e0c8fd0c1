import { readFileSync } from "node:fs";
import { requestDeclarationShape } from "../../lsp/features/declaration-shape.js";
import { requestImporters } from "../../lsp/features/file-importers.js";
import { requestTsserverFileShape, requestTsserverImporters } from "../../lsp/features/tsserver-project.js";
import type { LspClient, RequestOptions } from "../../lsp/lsp-client.js";
import { summarizeModule } from "./module-summary.js";
import type { ProjectState } from "./project-state.js";

/**
 * What the warm path asks a server's program about a changed file: its declaration shape before
 * the server hears of the change and after (equal shapes: the change reaches no other file), and
 * the files that import it. Null shape: it cannot be told, so every file may be reached.
 */
export interface ProjectQueries {
  shapeBefore(path: string): Promise<string | null>;
  shapeAfter(path: string): Promise<string | null>;
  importers(path: string): Promise<string[]>;
}

/** The queries of `client`'s server: tsserver's own requests, or plain LSP for a server with complete pulls. */
export function projectQueries(client: LspClient, state: ProjectState, options: RequestOptions): ProjectQueries {
  if (!client.adapter.answersManyFiles) {
    const shape = (path: string) => requestTsserverFileShape(client, path, options);
    return { shapeBefore: shape, shapeAfter: shape, importers: (path) => requestTsserverImporters(client, path, options) };
  }
  // The exported names come from the text the server's program holds: the text its answer was
  // given with before the change (or the disk's at the change before), the disk's after it.
  return {
    shapeBefore: async (path) => {
      // What it exported when the server last took it in: read at a change since, else from
      // the text its kept answer was given with.
      const kept = state.rendered.get(path);
      const summary = state.summaries.get(path) ?? (kept && state.answers.get(path) === kept.answer ? summarizeModule(kept.text) : undefined);
      if (!summary || summary.global) return null;
      const shape = await requestDeclarationShape(client, path, summary.exportedNames, options);
      return shape === null ? null : JSON.stringify([summary.exportStatements, shape]);
    },
    shapeAfter: async (path) => {
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        return null;
      }
      const summary = summarizeModule(text);
      state.summaries.set(path, summary);
      if (summary.global) return null;
      const shape = await requestDeclarationShape(client, path, summary.exportedNames, options);
      return shape === null ? null : JSON.stringify([summary.exportStatements, shape]);
    },
    importers: (path) => requestImporters(client, path, options),
  };
}
