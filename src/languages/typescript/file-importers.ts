import { fileURLToPath, pathToFileURL } from "node:url";
import { basename, dirname, join } from "node:path";
import { WillRenameFilesRequest } from "vscode-languageserver-protocol";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";

/**
 * The files whose imports name `file` (absolute), as the compiler resolves them: the files that
 * `workspace/willRenameFiles` would edit if `file` moved to another folder. That request only
 * computes edits (nothing is written or applied); every module specifier, re-export, import type
 * and triple-slash reference that resolves to the file must change when its folder does, so the
 * edited files are its importers, with the project's own module resolution (paths, package
 * exports) — no guess of the bridge's.
 */
export async function requestImporters(link: Pick<ServerLink, "request">, file: string, options: RequestOptions): Promise<string[]> {
  const moved = join(dirname(file), ".lspmcp-importers-probe", basename(file));
  const edit = await link.request(WillRenameFilesRequest.type, { files: [{ oldUri: pathToFileURL(file).href, newUri: pathToFileURL(moved).href }] }, options);
  const uris = new Set<string>(Object.keys(edit?.changes ?? {}));
  for (const change of edit?.documentChanges ?? []) if ("textDocument" in change) uris.add(change.textDocument.uri);
  return [...uris].filter((uri) => uri.startsWith("file:")).map((uri) => fileURLToPath(uri));
}
