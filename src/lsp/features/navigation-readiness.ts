import type { OpenDocument } from "../document-sync.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { settleDiagnostics } from "./diagnostics-settle.js";

// Document versions already known ready: a repeated call on an unchanged file waits for nothing.
const ready = new WeakSet<OpenDocument>();

/**
 * Waits until the server can answer navigation for `document` from its whole project, so that a
 * first `references` is the same list as a later one (never an early, partial list):
 *
 * - A server with its own signal of a loaded project: its project model's wait (`awaitProjectLoaded`:
 *   typescript-language-server answers navigation from a syntax-only tsserver while the project
 *   loads).
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
  const awaitProjectLoaded = client.adapter.projectModel?.awaitProjectLoaded;
  if (awaitProjectLoaded) {
    await awaitProjectLoaded(document.uri, options);
  } else {
    await settleDiagnostics(client, document, options);
  }
  ready.add(document);
}
