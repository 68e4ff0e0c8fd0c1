import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { LspClient } from "../lsp/lsp-client.js";
import { resolveFile, pickServerForFile, pickWorkspace, type FileTarget } from "../sessions/resolve-target.js";
import { readSourceFile } from "../sessions/read-source-file.js";
import { syncText, type SyncedDocument } from "../sessions/synced-document.js";
import type { CallContext } from "./call-context.js";

/** A file-based call, resolved down to a ready client holding the file's current text. */
export interface OpenTarget {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly file: FileTarget;
  readonly client: LspClient;
  readonly synced: SyncedDocument;
}

/**
 * The steps every file tool shares, in the order that gives the most useful error first:
 * workspace, path (boundary), server, the file's bytes, and only then the session, so that a bad
 * path never costs a server start.
 */
export async function openTarget(
  context: CallContext,
  args: { workspace?: string | undefined; server?: string | undefined; path: string },
): Promise<OpenTarget> {
  const workspace = pickWorkspace(context.config, args.workspace, args.path);
  const file = resolveFile(workspace, args.path);
  const { server, languageId } = pickServerForFile(context.config, workspace, args.server, file);
  const text = await readSourceFile(file.absolutePath, file.path);
  const client = await context.sessions.ready(workspace, server, context.deadline);
  const synced = await syncText(client, file, languageId, text);
  return { workspace, server, file, client, synced };
}
