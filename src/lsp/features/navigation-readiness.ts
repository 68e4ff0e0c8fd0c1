import { fileURLToPath } from "node:url";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol";
import type { OpenDocument } from "../document-sync.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { settleDiagnostics } from "./diagnostics-settle.js";
import { supportsTsserverDiagnostics } from "./tsserver-diagnostics.js";

// Document versions already known ready: a repeated call on an unchanged file waits for nothing.
const ready = new WeakSet<OpenDocument>();

/**
 * Waits until the server can answer navigation for `document` from its whole project, so that a
 * first `references` is the same list as a later one (never an early, partial list):
 *
 * - typescript-language-server answers navigation from a syntax-only tsserver while the project
 *   loads (1 of 6 references, definitions that stop at the import). tsserver's `projectInfo` is
 *   routed to the semantic server and answered only once the file's project is loaded; tsls
 *   switches navigation to the semantic server on that server's project-loaded event, which
 *   arrives before the answer.
 * - Every other server: the document's diagnostics have settled (the same rule as the
 *   `diagnostics` tool). pyright publishes them only after it has found the workspace's source
 *   files, which is what its references search walks; clangd after it has built the file.
 *
 * Fails with `Timeout` at the deadline, like any wait of the bridge.
 */
/** Whether `document` (this version) is known ready: `awaitNavigationReady` would wait for nothing. */
export function isNavigationReady(document: OpenDocument): boolean {
  return ready.has(document);
}

export async function awaitNavigationReady(client: LspClient, document: OpenDocument, options: RequestOptions): Promise<void> {
  if (ready.has(document)) return;
  if (supportsTsserverDiagnostics(client)) {
    const file = fileURLToPath(document.uri);
    await client.request(
      ExecuteCommandRequest.type,
      { command: "typescript.tsserverRequest", arguments: ["projectInfo", { file, needFileNameList: false }] },
      options,
    );
  } else {
    await settleDiagnostics(client, document, options);
  }
  ready.add(document);
}
