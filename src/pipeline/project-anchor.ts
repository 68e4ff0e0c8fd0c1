import { pathToFileURL } from "node:url";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { compareStrings } from "../contract/compare.js";
import { awaitNavigationReady } from "../lsp/features/navigation-readiness.js";
import { supportsTsserverDiagnostics } from "../lsp/features/tsserver-diagnostics.js";
import type { LspClient } from "../lsp/lsp-client.js";
import type { CallContext } from "./call-context.js";
import { discoverInWorkspace } from "./discover-targets.js";
import { openTarget } from "./open-target.js";

/**
 * Makes sure a workspace-wide request has a project to search, for the servers that search only
 * the project of an open file. typescript-language-server sends tsserver's `navto` for the file
 * it used last, and with no file open tsserver answers "No Project" (an error, on a fresh session
 * or after a restart). So a document of the workspace is held open for the call and its project
 * loaded first: one already open when there is one (the first by URI), else the first file of
 * the workspace, by path, that this server claims. Returns false when there is no such file (the
 * workspace has nothing for the server to search). Other servers index the workspace themselves:
 * nothing to do.
 */
export async function holdProjectAnchor(
  context: CallContext,
  workspace: ResolvedWorkspace,
  server: ResolvedServer,
  client: LspClient,
): Promise<boolean> {
  if (!supportsTsserverDiagnostics(client)) return true;
  const options = { deadline: context.deadline, signal: context.signal };
  const rootUri = pathToFileURL(workspace.root).href + "/";
  const open = client.documents
    .openUris()
    .filter((uri) => uri.startsWith(rootUri))
    .sort(compareStrings)[0];
  if (open !== undefined) {
    context.scope.defer(client.documents.hold(open));
    const document = client.documents.get(open);
    // Closed between the look and the hold: fall through to opening one.
    if (document) {
      await awaitNavigationReady(client, document, options);
      return true;
    }
  }
  const [first] = await discoverInWorkspace(context.config, workspace, server.name, ["."]);
  if (!first) return false;
  const target = await openTarget(context, { workspace: workspace.name, server: server.name, path: first.file.path });
  await awaitNavigationReady(target.client, target.synced.document, options);
  return true;
}
