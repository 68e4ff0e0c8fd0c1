import { pathToFileURL } from "node:url";
import { FileChangeType } from "vscode-languageserver-protocol";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../../config/types.js";
import { CallScope } from "../../contract/call-scope.js";
import { Deadline } from "../../contract/deadline.js";
import { claimingServers, languageFor, type ResolvedTarget, sessionKey, sessionPairs } from "../../targets/resolve-target.js";
import { reachBefore } from "../../disk-sync/apply-disk-changes.js";
import type { DiskChange } from "../../disk-sync/disk-view.js";
import { projectStateOf, type ProjectState } from "../../disk-sync/project-state.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import { diagnoseTargets, type DiagnoseTargetsOptions } from "../run/diagnose-targets.js";
import type { Discovery } from "../../targets/discover-targets.js";
import type { FileDiagnostics } from "../run/file-diagnostics.js";
import type { PreviewChange } from "./resolve-changes.js";

/** A source whose findings a preview cannot count: it reads only the disk, or its server could not be shown a change. */
export interface NotPreviewed {
  readonly server: string;
  /** null: every source of the server (a change it cannot be shown, such as a deletion). */
  readonly source: string | null;
}

interface ChangesAnswers {
  /** The scope as it is on disk, in target order. */
  readonly before: readonly FileDiagnostics[];
  /** The scope with the changes, in target order: deleted files left out, created ones in. */
  readonly after: readonly FileDiagnostics[];
  readonly notPreviewed: readonly NotPreviewed[];
}

interface DiagnoseChangesOptions {
  readonly serverName?: string | undefined;
  readonly batchSize: number;
  readonly signal?: AbortSignal | undefined;
  /** After each file of either run: files done so far, of both runs' total. */
  readonly onFileDone?: (done: number, total: number) => void;
}

/**
 * Checks a discovery as it is on disk and with `changes` (CONTRACT §4.4), nothing written. The
 * sessions of the scope are reserved for the whole preview (`SessionRegistry.exclusively`): any
 * other call on them, from this caller or another peer, waits until every server sees the disk
 * again, so none ever answers from a preview's text. The servers see each changed file they
 * claim as an open document with its new text (a created file is a new document); a deleted one
 * is told as a watched-file deletion to a server whose files the bridge watches, and cannot be
 * shown to any other (that server is not previewed). A project's kept answers (`ProjectState`)
 * are set aside for the preview and put back after, so none made from the preview's text is ever
 * given again; meanwhile those of the files the changes cannot reach are given as they are (the
 * same rule as for a change on disk: the changed files' shapes before and after, their importers).
 */
export async function diagnoseChanges(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  discovery: Discovery,
  changes: readonly PreviewChange[],
  created: readonly string[],
  options: DiagnoseChangesOptions,
): Promise<ChangesAnswers> {
  const afterTargets = targetsWithChanges(config, discovery, changes, created, options.serverName);
  const pairs = sessionPairs([...discovery.targets, ...afterTargets]);
  const total = discovery.targets.length + afterTargets.length;
  let done = 0;
  const tick = () => options.onFileDone?.(++done, total);
  // A preview is the tool's alone (`check` has none).
  const run: DiagnoseTargetsOptions = {
    batchSize: options.batchSize,
    documents: "keep",
    onFileDone: tick,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  return sessions.exclusively(pairs, Deadline.in(config.bridge.request_timeout_ms), async () => {
    const before = await diagnoseTargets(config, sessions, discovery.targets, { ...run, listings: discovery.listings });
    const shown: Shown[] = [];
    try {
      for (const pair of pairs) await show(config, sessions, pair, changes, shown);
      const overlay = new Map(changes.flatMap((change) => (change.after === null ? [] : [[change.file.absolutePath, change.after] as const])));
      const after = await diagnoseTargets(config, sessions, afterTargets, { ...run, overlay });
      return { before, after: withCreatedNotChecked(after, changes, shown), notPreviewed: notPreviewed(shown) };
    } finally {
      await restoreAll(shown);
    }
  });
}

/** What one session was shown, and how to take it back. */
interface Shown {
  /** Stops the session: what a restore that failed on a live server leaves is never answered from. */
  readonly stop: () => Promise<void>;
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly client: LspClient;
  /** Sources of the server whose findings the preview cannot count. */
  readonly blind: NotPreviewed[];
  readonly undo: (() => Promise<void>)[];
  readonly scope: CallScope;
}

async function show(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  { workspace, server }: { workspace: ResolvedWorkspace; server: ResolvedServer },
  changes: readonly PreviewChange[],
  all: Shown[],
): Promise<void> {
  const scope = new CallScope();
  let client: LspClient;
  try {
    client = await sessions.readyClient(workspace, server, Deadline.in(config.bridge.request_timeout_ms), scope);
  } catch (error) {
    scope.close();
    throw error;
  }
  // Recorded before anything is shown: a step that fails half-way is taken back with the rest.
  const stop = () => sessions.get(workspace, server).stop();
  const shown: Shown = {
    stop,
    workspace,
    server,
    client,
    blind: [...client.adapter.diskOnlySources].map((source) => ({ server: server.name, source })),
    undo: [],
    scope,
  };
  all.push(shown);
  const watched = client.bridgeWatchesFiles;
  const options = { deadline: Deadline.in(config.bridge.request_timeout_ms) };
  let keepUnreached: (() => Promise<void>) | null = null;
  if (watched) {
    const state = projectStateOf(client);
    await state.refreshed;
    const reach = await reachOfPreview(
      client,
      state,
      server,
      changes.filter((change) => change.workspace === workspace),
      options,
    );
    const aside = state.setAsideAnswers();
    // The server's program is the disk's again: the answers kept for it hold again.
    shown.undo.push(async () => aside.putBack());
    if (reach !== null) {
      keepUnreached = async () => {
        const reached = await reach();
        if (reached !== null) aside.keepUnreached(reached);
      };
    }
  } else {
    // An open document whose dependency the preview changed may hold a publish made from the
    // preview's text for its unchanged version: every document is closed after, and opened anew.
    shown.undo.push(async () => {
      for (const uri of client.documents.openUris()) await client.documents.close(uri);
    });
  }
  for (const change of changes) {
    if (change.workspace !== workspace) continue;
    const uri = pathToFileURL(change.file.absolutePath).href;
    const languageId = languageFor(server, change.file);
    if (languageId === null) {
      // A file the server reads but is not given as a document (a tsconfig.json, package.json).
      if (watched && client.adapter.watchedFiles.test(change.file.absolutePath)) shown.blind.push({ server: server.name, source: null });
      continue;
    }
    if (change.after !== null) {
      const wasOpen = client.documents.get(uri)?.text;
      scope.defer(client.documents.hold(uri));
      shown.undo.push(async () => {
        if (wasOpen !== undefined && change.before !== null) await client.documents.sync(uri, languageId, change.before);
        else if (client.documents.get(uri)) await client.documents.close(uri);
      });
      // Opened with the disk's text first, so that the new text comes as a change: pyright marks
      // a module's importers stale on a change of its document, not when it is opened with a
      // text other than the disk's (importers checked earlier keep the disk's module).
      if (wasOpen === undefined && change.before !== null) await client.documents.sync(uri, languageId, change.before);
      await client.documents.sync(uri, languageId, change.after);
    } else if (watched) {
      if (client.documents.get(uri)) await client.documents.close(uri);
      shown.undo.push(() => client.notifyWatchedFiles([{ uri, type: FileChangeType.Created }]));
      await client.notifyWatchedFiles([{ uri, type: FileChangeType.Deleted }]);
    } else {
      shown.blind.push({ server: server.name, source: null });
    }
  }
  await keepUnreached?.();
}

/**
 * For a server whose files the bridge watches, with answers kept: what its project model asks
 * now, before the server is shown the changes, and what asks, once it has been shown them, which
 * files they reach (null: every file). Null when nothing can be kept: no answers, no project
 * model, or a change whose reach the model cannot tell (a created or deleted file, a
 * configuration file).
 */
async function reachOfPreview(
  client: LspClient,
  state: ProjectState,
  server: ResolvedServer,
  changes: readonly PreviewChange[],
  options: { deadline: Deadline },
): Promise<(() => Promise<Set<string> | null>) | null> {
  const reach = state.answers.size === 0 ? null : (client.adapter.projectModel?.changeReach(state, options) ?? null);
  if (reach === null) return null;
  // Only what the server sees: a file it neither claims nor watches is no part of its program.
  const seen = changes.filter((change) => languageFor(server, change.file) !== null || client.adapter.watchedFiles.test(change.file.absolutePath));
  const asDisk = seen.map(
    (change): DiskChange => ({ path: change.file.absolutePath, kind: change.before === null ? "created" : change.after === null ? "deleted" : "changed" }),
  );
  const after = await reachBefore(client, state, reach, asDisk);
  if (after === null) return null;
  const texts = new Map(seen.map((change) => [change.file.absolutePath, change.after ?? undefined]));
  return () => after((path) => texts.get(path));
}

/**
 * Every session sees the disk again, newest change first. A step that fails does not stop the
 * others; a session whose server is still up after a failed step is stopped (the next call starts
 * it afresh from the disk), and the first failure is thrown once all have run.
 */
async function restoreAll(shown: readonly Shown[]): Promise<void> {
  let failure: unknown = null;
  for (const session of shown) {
    let failed = false;
    for (const undo of session.undo.reverse()) {
      if (session.client.isClosed) break;
      await undo().catch((error: unknown) => {
        failed = true;
        failure ??= error;
      });
    }
    session.scope.close();
    if (failed && !session.client.isClosed) await session.stop().catch(() => {});
  }
  if (failure !== null) throw failure;
}

/**
 * The answers with each created file that its server cannot check without it on disk marked not
 * checked (`ServerAdapter.createdNotChecked`): such a server's silence is no clean answer. Its
 * findings are left out too: whether the server looked at it after all is a matter of timing
 * (gopls does when a later change of the same preview is diagnosed), and one edit gets one answer.
 */
function withCreatedNotChecked(answers: readonly FileDiagnostics[], changes: readonly PreviewChange[], shown: readonly Shown[]): FileDiagnostics[] {
  const created = new Set(changes.flatMap((change) => (change.before === null && change.after !== null ? [change.file.absolutePath] : [])));
  return answers.map((answer) => {
    if (answer.notChecked !== undefined || !created.has(answer.file.absolutePath)) return answer;
    const session = shown.find((entry) => entry.workspace.name === answer.workspace.name && entry.server.name === answer.server.name);
    const reason = session?.client.adapter.createdNotChecked(answer.file.absolutePath) ?? null;
    return reason === null ? answer : { ...answer, diagnostics: [], notChecked: reason };
  });
}

function notPreviewed(shown: readonly Shown[]): NotPreviewed[] {
  const seen = new Map<string, NotPreviewed>();
  for (const { blind } of shown) for (const entry of blind) seen.set(JSON.stringify([entry.server, entry.source]), entry);
  return [...seen.values()].sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : (a.source ?? "") < (b.source ?? "") ? -1 : 1));
}

/**
 * The scope's targets as the changes leave it: deleted files gone, created files in scope (under
 * a path asked for, or named themselves) added for every server claiming them, grouped by session
 * as the runner needs.
 */
function targetsWithChanges(
  config: ResolvedConfig,
  discovery: Discovery,
  changes: readonly PreviewChange[],
  created: readonly string[],
  serverName: string | undefined,
): ResolvedTarget[] {
  const deleted = new Set(changes.flatMap((change) => (change.after === null ? [change.file.absolutePath] : [])));
  const targets = discovery.targets.filter((target) => !deleted.has(target.file.absolutePath));
  for (const change of changes) {
    if (change.before !== null || change.after === null) continue;
    const scope = discovery.scope.find((entry) => entry.workspace === change.workspace);
    const inScope =
      created.includes(change.file.absolutePath) ||
      (scope?.paths.some((path) => path === "" || path === "." || change.file.path.startsWith(`${path}/`)) ?? false);
    if (!inScope) continue;
    for (const server of claimingServers(config, change.workspace, change.file)) {
      if (serverName !== undefined && server.name !== serverName) continue;
      targets.push({ workspace: change.workspace, server, languageId: languageFor(server, change.file)!, file: change.file });
    }
  }
  // Sessions in order of first appearance, files by path within each: each session's files neighbours.
  const rank = new Map(sessionPairs(targets).map((pair, index) => [sessionKey(pair), index]));
  const key = (target: ResolvedTarget) => rank.get(sessionKey(target))!;
  return targets.sort((a, b) => key(a) - key(b) || (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
}
