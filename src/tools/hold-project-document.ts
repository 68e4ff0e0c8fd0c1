import { pathToFileURL } from "node:url";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { compareStrings } from "../contract/compare.js";
import { awaitNavigationReady } from "../lsp/features/navigation-readiness.js";
import type { LspClient } from "../lsp/lsp-client.js";
import type { CallContext } from "../targets/call-context.js";
import { discoverInWorkspace } from "../targets/discover-targets.js";
import { openTarget } from "../targets/open-target.js";

/**
 * Makes sure a workspace-wide request answers from the whole project, so that the first search
 * of a session gives what the tenth does (never an early, empty list). A document of the workspace
 * is held open for the call and the server's navigation readiness awaited on it, the rule
 * `references` keeps (`awaitNavigationReady`): one already open when there is one (the first by
 * URI), else the first file of the workspace, by path, that this server claims.
 * typescript-language-server searches only the project of the file it used last (with none open
 * tsserver answers "No Project"); pyright answers `[]` until it has found the workspace's source
 * files. Returns false when there is no such file (the workspace has nothing for the server to
 * search).
 */
export async function holdProjectDocument(context: CallContext, workspace: ResolvedWorkspace, server: ResolvedServer, client: LspClient): Promise<boolean> {
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
  const target = await openTarget(context, first);
  await awaitNavigationReady(target.client, target.synced.document, options);
  return true;
}
