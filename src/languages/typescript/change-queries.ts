import { readFileSync } from "node:fs";
import { requestDeclarationShape } from "./declaration-shape.js";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { KeptTexts } from "../../lsp/project-model.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import type { ChangeQueries } from "./change-reach.js";
import { summarizeModule, type ModuleSummary } from "./module-summary.js";
import { requestTsserverFileShape, requestTsserverImporters } from "./tsserver-project.js";
import { fileURLToPath, pathToFileURL } from "node:url";
import { basename, dirname, join } from "node:path";
import { WillRenameFilesRequest } from "vscode-languageserver-protocol";

/**
 * Source files, whose change reaches only their importers when they are modules; a change of any
 * other (a tsconfig, package.json, JSON module) can reach every file: it has no shape.
 */
const SOURCE_FILE = /\.(?:[cm]?tsx?|[cm]?jsx?)$/;

/** tsserver's: its own `navtree`/`quickinfo` shape of a file, and its `fileReferences`. */
export function tsserverChangeQueries(link: ServerLink, options: RequestOptions): ChangeQueries {
  const shape = async (path: string) => (SOURCE_FILE.test(path) ? requestTsserverFileShape(link, path, options) : null);
  return { shapeBefore: shape, shapeAfter: shape, importers: (path) => requestTsserverImporters(link, path, options) };
}

/**
 * TypeScript 7's, over plain LSP: the hover of each name a file's export lines mention, and the
 * importers `willRenameFiles` finds. The exported names come from the text the server's program
 * holds: the text its kept answer was given with before the change (or the disk's, noted at the
 * change before), the disk's after it (or the preview's it was shown).
 */
export function nativeChangeQueries(link: ServerLink, kept: KeptTexts, options: RequestOptions): ChangeQueries {
  const shapeOf = async (path: string, summary: ModuleSummary | undefined): Promise<string | null> => {
    if (!summary || summary.global) return null;
    const shape = await requestDeclarationShape(link, path, summary.exportedNames, options);
    return shape === null ? null : JSON.stringify([summary.exportStatements, shape]);
  };
  return {
    shapeBefore: (path) => {
      if (!SOURCE_FILE.test(path)) return Promise.resolve(null);
      const noted = kept.notes.get(path) as ModuleSummary | undefined;
      const text = noted ? undefined : kept.keptText(path);
      return shapeOf(path, noted ?? (text === undefined ? undefined : summarizeModule(text)));
    },
    shapeAfter: (path, shown) => {
      if (!SOURCE_FILE.test(path)) return Promise.resolve(null);
      let text: string;
      try {
        text = shown ?? readFileSync(path, "utf8");
      } catch {
        return Promise.resolve(null);
      }
      const summary = summarizeModule(text);
      kept.notes.set(path, summary);
      return shapeOf(path, summary);
    },
    // A move's edits also name the file itself (its own relative imports) and a tsconfig that
    // lists it: neither imports it, and asking for their importers in turn costs a whole-program look.
    importers: async (path) => (await requestImporters(link, path, options)).filter((importer) => importer !== path && SOURCE_FILE.test(importer)),
  };
}

/**
 * The files whose imports name `file` (absolute), as the compiler resolves them: the files that
 * `workspace/willRenameFiles` would edit if `file` moved to another folder. That request only
 * computes edits (nothing is written or applied); every module specifier, re-export, import type
 * and triple-slash reference that resolves to the file must change when its folder does, so the
 * edited files are its importers, with the project's own module resolution (paths, package
 * exports) — no guess of the bridge's.
 */
async function requestImporters(link: Pick<ServerLink, "request">, file: string, options: RequestOptions): Promise<string[]> {
  const moved = join(dirname(file), ".lspmcp-importers-probe", basename(file));
  const edit = await link.request(WillRenameFilesRequest.type, { files: [{ oldUri: pathToFileURL(file).href, newUri: pathToFileURL(moved).href }] }, options);
  const uris = new Set<string>(Object.keys(edit?.changes ?? {}));
  for (const change of edit?.documentChanges ?? []) if ("textDocument" in change) uris.add(change.textDocument.uri);
  return [...uris].filter((uri) => uri.startsWith("file:")).map((uri) => fileURLToPath(uri));
}
