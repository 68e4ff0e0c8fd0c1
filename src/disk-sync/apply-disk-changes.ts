import { pathToFileURL } from "node:url";
import { FileChangeType, type FileEvent } from "vscode-languageserver-protocol";
import type { ChangeReach, ReachAfter } from "../lsp/project-model.js";
import type { LspClient, RequestOptions } from "../lsp/lsp-client.js";
import { readSourceFile } from "../files/read-source-file.js";
import type { DiskChange } from "./disk-view.js";
import type { ProjectState } from "./project-state.js";

/**
 * Tells the server what changed on disk and drops the cached answers a change can reach.
 *
 * Which answers an edit reaches is the server's project model's to tell (`ChangeReach`, asked
 * before the server hears of the edit and after); anything it cannot tell — a created or deleted
 * file, a file whose document was synced since the answers were made, edits whose reach the model
 * cannot tell, a server with no model — drops every cached answer. So a kept answer is one the
 * server would give again.
 */
export async function applyDiskChanges(client: LspClient, state: ProjectState, changes: readonly DiskChange[], options: RequestOptions): Promise<void> {
  if (changes.length === 0) return;
  const reach = client.adapter.projectModel?.changeReach(state, options) ?? null;
  const after = state.answers.size === 0 || reach === null ? null : await reachBefore(client, state, reach, changes);
  state.generation++;
  await client.notifyWatchedFiles(changes.map(toFileEvent));
  // A server does not watch what it holds open: an open document follows the disk by a sync.
  for (const change of changes) await resyncOpenDocument(client, change);
  if (state.answers.size === 0) {
    for (const change of changes) state.notes.delete(change.path);
    return;
  }
  const reached = after === null ? null : await after();
  if (reached === null) {
    state.answers.clear();
    state.notes.clear();
    return;
  }
  for (const path of reached) state.answers.delete(path);
}

/**
 * What tells, once the server has heard of `changes`, which kept answers they reach (asked of
 * the model before it hears of them), or null for "every file": a file created or deleted (module
 * resolution may change), one whose document was synced since the answers were made (the server
 * no longer has its old text), or edits whose reach the model cannot tell.
 */
export async function reachBefore(client: LspClient, state: ProjectState, reach: ChangeReach, changes: readonly DiskChange[]): Promise<ReachAfter | null> {
  for (const change of changes) {
    if (change.kind !== "changed") return null;
    if (client.documents.lastSentFor(pathToFileURL(change.path).href) > state.sentAtLook) return null;
  }
  return reach.before(changes.map((change) => change.path));
}

async function resyncOpenDocument(client: LspClient, change: DiskChange): Promise<void> {
  const uri = pathToFileURL(change.path).href;
  const open = client.documents.get(uri);
  if (!open) return;
  const text = change.kind === "deleted" ? null : await readSourceFile(change.path, change.path).catch(() => null);
  if (text === null) await client.documents.close(uri);
  else await client.documents.sync(uri, open.languageId, text);
}

function toFileEvent(change: DiskChange): FileEvent {
  const type = change.kind === "created" ? FileChangeType.Created : change.kind === "deleted" ? FileChangeType.Deleted : FileChangeType.Changed;
  return { uri: pathToFileURL(change.path).href, type };
}
