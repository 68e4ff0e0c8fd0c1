import { dirname, join } from "node:path";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { Deadline } from "../contract/deadline.js";
import type { ServerAdapter } from "../lsp/server-adapter.js";
import type { LspClient, RequestOptions } from "../lsp/lsp-client.js";
import type { Session } from "../sessions/session.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import type { WorkspaceListing } from "../files/file-stamp.js";
import { workspaceFiles } from "../files/workspace-files.js";
import { applyDiskChanges } from "./apply-disk-changes.js";
import type { DiskChange, DiskView } from "./disk-view.js";
import { projectStateOf, type ProjectState } from "./project-state.js";

/** A session's client brought up to date with the disk, its project state, and the paths found changed. */
interface DiskRefresh {
  /** The client to ask: a new one when a change restarted the session. */
  readonly client: LspClient;
  readonly state: ProjectState;
  readonly changed: ReadonlySet<string>;
}

/**
 * What a look's changes call for. A server that cannot be trusted to take a change in
 * (`diskChangesNeedRestart`) is started afresh, so that it reads every file from the disk; any
 * other is told. The first look has nothing to compare with: what it reports is what was written
 * about the server's start (see `DiskView`), which the server has almost surely read itself, and
 * a restart there would cost every fresh checkout a second start; it is told, as before.
 */
export function diskChangeAction(
  adapter: Pick<ServerAdapter, "diskChangesNeedRestart">,
  lookedBefore: boolean,
  changes: readonly DiskChange[],
): "none" | "tell" | "restart" {
  if (changes.length === 0) return "none";
  return adapter.diskChangesNeedRestart && lookedBefore ? "restart" : "tell";
}

/**
 * The disk view a restart for a change saw, for the session's next server: it read every file
 * after that look, so the look is where its own starts (the same change does not restart it
 * again, and one made since is found by its first look).
 */
const handedOver = new WeakMap<Session, DiskView>();

/**
 * Brings a server whose files the bridge watches (its adapter says so) up to date with the disk
 * before it answers, the workspace listed again so that new files are found too (what a
 * diagnostics answer needs). `listed`, when the caller listed the workspace just before (its
 * discovery), is that listing, taken instead of a second one, with the stamps discovery took of
 * its files instead of a second look at each. See {@link refresh} for what is then done.
 */
export function refreshFromListing(
  sessions: SessionRegistry,
  pair: SessionPair,
  client: LspClient,
  options: RequestOptions,
  listed?: WorkspaceListing,
): Promise<DiskRefresh> {
  return refresh(sessions, pair, client, options, async (state) => {
    const paths = listed?.paths ?? (await workspaceFiles(pair.workspace, sessions.config.shared.lease_dir));
    const { files, folders } = watchedFiles(client, pair.workspace, paths);
    return state.disk.lookAtAll(files, folders, Date.now(), listed?.stamps);
  });
}

/**
 * The same for a call that can afford a stat of each file already seen, and of the folders
 * holding them for new files (a navigation call): the workspace is listed only when nothing was
 * seen yet.
 */
export function refreshSeenFiles(sessions: SessionRegistry, pair: SessionPair, client: LspClient, options: RequestOptions): Promise<DiskRefresh> {
  return refresh(sessions, pair, client, options, async (state) => {
    if (state.disk.hasLooked) return state.disk.lookAtRecorded();
    const { files, folders } = watchedFiles(client, pair.workspace, await workspaceFiles(pair.workspace, sessions.config.shared.lease_dir));
    return state.disk.lookAtAll(files, folders, Date.now());
  });
}

/** The (workspace, server) pair of a session. */
type SessionPair = { readonly workspace: ResolvedWorkspace; readonly server: ResolvedServer };

/**
 * One look at the disk (`look`), one at a time per connection: its changes are told to the
 * server, or restart its session (`diskChangeAction`); then the client to ask is the new one.
 * Calls still holding the old client take the new one too: one change restarts the session once.
 */
async function refresh(
  sessions: SessionRegistry,
  pair: SessionPair,
  client: LspClient,
  options: RequestOptions,
  look: (state: ProjectState) => Promise<DiskChange[]>,
): Promise<DiskRefresh> {
  const changed = new Set<string>();
  const state = projectStateOf(client);
  if (!client.bridgeWatchesFiles) return { client, state, changed };
  const session = sessions.get(pair.workspace, pair.server);
  // One look at a time: a call must not answer between another call's look and the server
  // hearing of what that look found (or its restart).
  const turn = state.refreshed.then(async (): Promise<LspClient | null> => {
    if (state.restarted) return state.restarted;
    takeOver(session, state);
    const lookedBefore = state.disk.hasLooked;
    const changes = await look(state);
    for (const change of changes) changed.add(change.path);
    if (diskChangeAction(client.adapter, lookedBefore, changes) === "restart") {
      handedOver.set(session, state.disk);
      // Bounded by a start's own time, not this call's: every call on the old client waits for it.
      const startDeadline = Deadline.in(sessions.config.bridge.start_timeout_ms);
      state.restarted = sessions
        .restart(pair.workspace, pair.server, startDeadline, `${changes.length} file(s) changed on disk`)
        .then((restarted) => restarted.readyClient(startDeadline));
      return state.restarted;
    }
    await applyDiskChanges(client, state, changes, options);
    state.sentAtLook = client.documents.sentCount;
    return null;
  });
  state.refreshed = turn.then(
    () => {},
    () => {},
  );
  const restarted = await options.deadline.race(turn, `${session.key} to take in the changes on disk`);
  if (restarted === null) return { client, state, changed };
  // The new server read every file after the look that restarted it: a change since then is
  // concurrent with this call, and the next look finds it (its view starts from that look).
  const fresh = projectStateOf(restarted);
  takeOver(session, fresh);
  return { client: restarted, state: fresh, changed };
}

/** Gives a new server's state, before its first look, the view its session's restart saw. */
function takeOver(session: Session, state: ProjectState): void {
  const inherited = handedOver.get(session);
  if (!inherited || state.disk.hasLooked) return;
  state.disk = inherited;
  handedOver.delete(session);
}

/** The workspace's files the server's adapter has watched (absolute), and every folder of its listing with their parents. */
function watchedFiles(client: LspClient, workspace: ResolvedWorkspace, listed: readonly string[]): { files: string[]; folders: Set<string> } {
  const folders = new Set<string>([workspace.root]);
  for (const path of listed) {
    for (let folder = dirname(path); folder !== "." && !folders.has(join(workspace.root, folder)); folder = dirname(folder)) {
      folders.add(join(workspace.root, folder));
    }
  }
  const files = listed.map((path) => join(workspace.root, path));
  return { files: files.filter((path) => client.adapter.watchedFiles.test(path)), folders };
}
