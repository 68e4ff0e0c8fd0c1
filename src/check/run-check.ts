import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { Deadline } from "../contract/deadline.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { CallScope } from "../pipeline/call-scope.js";
import { fileDiagnostics, type FileDiagnostics } from "../pipeline/file-diagnostics.js";
import type { CheckTarget } from "./discover-targets.js";
import { FirstFailure, runPool } from "./run-pool.js";

export interface RunCheckOptions {
  /** At most this many documents of one session are open at once. */
  readonly batchSize: number;
  /** Called after each file is done, with the session that did it ("workspace/server"). */
  readonly onProgress?: (done: number, total: number, session: string) => void;
}

/** What one (workspace, server) session did during the run. */
export interface SessionRun {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly files: number;
  /** The most documents the session had open at once, read from its document sync. */
  readonly peakOpenDocuments: number;
  /** Documents still open when its last file was done: 0 unless closing failed. */
  readonly openDocumentsAtEnd: number;
}

export interface CheckRun {
  /** In target order. */
  readonly files: readonly FileDiagnostics[];
  readonly sessions: readonly SessionRun[];
}

/**
 * Checks every target through the bridge's own per-file pipeline (`fileDiagnostics`): sessions
 * run side by side up to `max_sessions`, each with at most `batchSize` documents open, and every
 * document is closed once read. Each file gets the configured request timeout as its deadline
 * (its session's start included). The first failure stops the run: no new file starts, files in
 * flight are cancelled, and the promise rejects with that failure, so a run never reports clean
 * when a server failed, died or did not settle.
 */
export async function runCheck(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  targets: readonly CheckTarget[],
  options: RunCheckOptions,
): Promise<CheckRun> {
  const groups = groupBySession(targets);
  const results: FileDiagnostics[] = new Array(targets.length);
  const failure = new FirstFailure();
  let done = 0;
  const runs = await runPool(groups, config.bridge.max_sessions, failure, async (group) => {
    let peak = 0;
    await runPool(group.items, options.batchSize, failure, async ({ target, index }) => {
      const context = { config, sessions, deadline: Deadline.in(config.bridge.request_timeout_ms), signal: failure.signal, scope: new CallScope() };
      const args = { workspace: target.workspace.name, server: target.server.name, path: target.file.absolutePath };
      try {
        results[index] = await fileDiagnostics(context, args, {
          close: true,
          onSynced: ({ client }) => (peak = Math.max(peak, client.documents.openCount)),
        });
      } finally {
        context.scope.close();
      }
      options.onProgress?.(++done, targets.length, `${target.workspace.name}/${target.server.name}`);
    });
    const session = sessions.get(group.workspace, group.server);
    const openDocumentsAtEnd = session.snapshot().open_documents;
    // Its files are done: free the slot for a session that is still waiting.
    await session.stop();
    return { workspace: group.workspace, server: group.server, files: group.items.length, peakOpenDocuments: peak, openDocumentsAtEnd };
  });
  return { files: results, sessions: runs };
}

interface SessionGroup {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly items: { target: CheckTarget; index: number }[];
}

/** Targets arrive ordered by (workspace, server), so each group is a run of neighbours. */
function groupBySession(targets: readonly CheckTarget[]): SessionGroup[] {
  const groups: SessionGroup[] = [];
  targets.forEach((target, index) => {
    const last = groups[groups.length - 1];
    if (last && last.workspace === target.workspace && last.server === target.server) last.items.push({ target, index });
    else groups.push({ workspace: target.workspace, server: target.server, items: [{ target, index }] });
  });
  return groups;
}
