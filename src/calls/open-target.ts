import { pathToFileURL } from "node:url";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { LspClient } from "../lsp/lsp-client.js";
import { resolveFile, pickServerForFile, pickWorkspace, type FileTarget } from "./resolve-target.js";
import { readSourceFile } from "./read-source-file.js";
import { syncText, type SyncedDocument } from "./synced-document.js";
import type { CallContext } from "./call-context.js";
import { refreshFromDisk } from "./watched-files/refresh-from-disk.js";

/** A file-based call, resolved down to a ready client holding the file's current text. */
export interface OpenTarget {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly file: FileTarget;
  readonly client: LspClient;
  readonly synced: SyncedDocument;
  /**
   * Lets go of the document before the call ends (it is let go at the call's end regardless):
   * a call that goes through many files releases each once it has its answer.
   */
  readonly release: () => void;
}

/**
 * The steps every file tool shares, in the order that gives the most useful error first:
 * workspace, path (boundary), server, the file's bytes, and only then the session, so that a bad
 * path never costs a server start. A server whose files the bridge watches is told of the changes
 * on disk first (`refreshFromDisk`). The document is held (never closed by the open-document
 * cap) from before its sync until `release` or the end of the call.
 */
export async function openTarget(
  context: CallContext,
  args: { workspace?: string | undefined; server?: string | undefined; path: string },
  options: { readonly refreshed?: boolean } = {},
): Promise<OpenTarget> {
  const workspace = pickWorkspace(context.config, args.workspace, args.path);
  const file = resolveFile(workspace, args.path);
  const { server, languageId } = pickServerForFile(context.config, workspace, args.server, file);
  const text = await readSourceFile(file.absolutePath, file.path);
  const client = await context.sessions.readyClient(workspace, server, context.deadline, context.scope);
  // A server whose files the bridge watches hears of changes on disk before it is asked
  // anything (`refreshed`: the caller has just looked at the whole workspace).
  if (client.bridgeWatchesFiles && !options.refreshed) {
    await refreshFromDisk(client, workspace, false, { deadline: context.deadline, signal: context.signal });
  }
  const release = client.documents.hold(pathToFileURL(file.absolutePath).href);
  context.scope.defer(release);
  const synced = await syncText(client, file, languageId, text);
  return { workspace, server, file, client, synced, release };
}
