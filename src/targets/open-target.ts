import { pathToFileURL } from "node:url";
import type { LspClient } from "../lsp/lsp-client.js";
import type { ResolvedTarget } from "./resolve-target.js";
import { readSourceFile } from "../files/read-source-file.js";
import { syncText, type SyncedDocument } from "./synced-document.js";
import type { CallContext } from "./call-context.js";
import { refreshSeenFiles } from "../disk-sync/refresh-from-disk.js";

/** A file-based call, resolved down to a ready client holding the file's current text. */
export interface OpenTarget extends ResolvedTarget {
  readonly client: LspClient;
  readonly synced: SyncedDocument;
  /**
   * Lets go of the document before the call ends (it is let go at the call's end regardless):
   * a call that goes through many files releases each once it has its answer.
   */
  readonly release: () => void;
}

/**
 * The steps every file call shares once its target is resolved (`resolveTarget`, or discovery):
 * the file's bytes, and only then the session, so that an unreadable file never costs a server
 * start. A server whose files the bridge watches is told of the changes
 * on disk first, or restarted for them (`refreshSeenFiles`), except in a preview of changes (`context.overlay`). The document is held (never closed by the open-document
 * cap) from before its sync until `release` or the end of the call.
 */
export async function openTarget(context: CallContext, target: ResolvedTarget, options: { readonly refreshed?: boolean } = {}): Promise<OpenTarget> {
  const { workspace, server, languageId, file } = target;
  const text = context.overlay?.get(file.absolutePath) ?? (await readSourceFile(file.absolutePath, file.path));
  let client = await context.sessions.readyClient(workspace, server, context.deadline, context.scope);
  // A server whose files the bridge watches hears of changes on disk before it is asked
  // anything, or is started afresh for them (`refreshed`: the caller has just looked at the
  // whole workspace, and the session's client is what that look left).
  if (client.bridgeWatchesFiles && !options.refreshed && context.overlay === undefined) {
    ({ client } = await refreshSeenFiles(context.sessions, target, client, { deadline: context.deadline, signal: context.signal }));
  }
  const release = client.documents.hold(pathToFileURL(file.absolutePath).href);
  context.scope.defer(release);
  const synced = await syncText(client, file, languageId, text);
  return { ...target, client, synced, release };
}
