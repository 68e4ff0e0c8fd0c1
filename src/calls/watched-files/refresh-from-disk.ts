import { dirname, join } from "node:path";
import type { ResolvedWorkspace } from "../../config/types.js";
import type { LspClient, RequestOptions } from "../../lsp/lsp-client.js";
import { workspaceFiles } from "../workspace-files.js";
import { applyDiskChanges } from "./apply-disk-changes.js";
import { projectStateOf, type ProjectState } from "./project-state.js";

/**
 * Brings a server whose files the bridge watches (its adapter says so) up to date with the
 * disk before it answers. `complete`: the workspace is listed again, so new files are found too
 * (what a diagnostics answer needs); otherwise the files already seen are looked at again, a stat
 * each, and the folders holding them, for new files (what a navigation call can afford), unless
 * nothing was seen yet. Returns the
 * session's project state, brought up to date with it, and the paths found changed.
 */
export async function refreshFromDisk(
  client: LspClient,
  workspace: ResolvedWorkspace,
  complete: boolean,
  options: RequestOptions,
): Promise<{ state: ProjectState; changed: ReadonlySet<string> }> {
  const state = projectStateOf(client);
  const changed = new Set<string>();
  if (!client.bridgeWatchesFiles) return { state, changed };
  // One look at a time: a call must not answer between another call's look and the server
  // hearing of what that look found.
  const turn = state.refreshed.then(async () => {
    let changes: ReturnType<typeof state.disk.lookAtRecorded>;
    if (complete || !state.disk.hasLooked) {
      const { files, folders } = await watchedFiles(client, workspace);
      changes = state.disk.lookAtAll(files, folders);
    } else {
      changes = state.disk.lookAtRecorded();
    }
    for (const change of changes) changed.add(change.path);
    await applyDiskChanges(client, state, changes, options);
    state.sentAtLook = client.documents.sentCount;
  });
  state.refreshed = turn.catch(() => {});
  await turn;
  return { state, changed };
}

/** The workspace's files the server's adapter has watched (absolute), and every folder of its listing with their parents. */
async function watchedFiles(client: LspClient, workspace: ResolvedWorkspace): Promise<{ files: string[]; folders: Set<string> }> {
  const listed = await workspaceFiles(workspace);
  const folders = new Set<string>([workspace.root]);
  for (const path of listed) {
    for (let folder = dirname(path); folder !== "." && !folders.has(join(workspace.root, folder)); folder = dirname(folder)) {
      folders.add(join(workspace.root, folder));
    }
  }
  const files = listed.map((path) => join(workspace.root, path));
  return { files: files.filter((path) => client.adapter.watchedFiles.test(path)), folders };
}
