import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../../config/types.js";
import { TOOLCHAIN_PATH_FIELD } from "../../contract/toolchain-fields.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import type { ResolvedTarget } from "../../targets/resolve-target.js";
import { diagnoseTargets } from "./diagnose-targets.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import type { WorkspaceListing } from "../../files/file-stamp.js";

interface RunCheckOptions {
  /** At most this many documents of one session are open at once. */
  readonly batchSize: number;
  /** Called after each file is done, with the session that did it ("workspace/server"). */
  readonly onProgress?: (done: number, total: number, session: string) => void;
  /** Called after each file is done, with its target (`--since` counts both trees' files). */
  readonly onFileDone?: (target: ResolvedTarget) => void;
  /** Aborts the run (`--since`: the revision's run failed). */
  readonly signal?: AbortSignal;
  /** The workspaces' listings the targets' discovery took (`Discovery.listings`). */
  readonly listings?: ReadonlyMap<ResolvedWorkspace, WorkspaceListing>;
}

/** The toolchain that answered a session's files (one the workspace may bring), as `check`'s report names it. */
export interface RunToolchain {
  /** What a report says before the version (the language's `ToolchainReport.title`). */
  readonly title: string;
  readonly version: string;
  readonly source: "workspace" | "pinned";
  /** Its package folder relative to the workspace root, or "pinned". */
  readonly path: string;
  /** The project folders it answers (relative to the workspace root, "" the root), as its session found them. */
  readonly folders: readonly string[];
}

/** What one (workspace, server) session, or one toolchain's of it, did during the run. */
interface SessionRun {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly files: number;
  /** The version that answered: the toolchain's when the server answers with one, else the server's. */
  readonly version: string;
  /** The toolchain that answered, or null for a server that runs as configured. */
  readonly toolchain: RunToolchain | null;
  /** The most documents the session had open at once, read from its document sync. */
  readonly peakOpenDocuments: number;
  /** Documents still open when its last file was done: 0 unless closing failed. */
  readonly openDocumentsAtEnd: number;
}

/** A finished run of many targets: what `check` reports, and what `since` gives of the working tree. */
export interface DiagnosticsRun {
  /** In target order. */
  readonly files: readonly FileDiagnostics[];
  /** What each session did (`runCheck`); empty for a run that keeps its sessions and documents (the tool's). */
  readonly sessions: readonly SessionRun[];
}

/**
 * Checks every target through the bridge's many-file pipeline (`diagnoseTargets`, which the
 * `diagnostics` tool uses for folders): sessions side by side up to `max_sessions`, each with at
 * most `batchSize` documents open, every document closed once read, each file with its own
 * `request_timeout_ms`. A session is stopped once its last file is done, to free its slot. The
 * first failure stops the run and rejects, so a run never reports clean when a server failed,
 * died or did not settle.
 */
export async function runCheck(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  targets: readonly ResolvedTarget[],
  options: RunCheckOptions,
): Promise<DiagnosticsRun> {
  const peaks = new Map<string, number>();
  const runs: SessionRun[] = [];
  const files = await diagnoseTargets(config, sessions, targets, {
    batchSize: options.batchSize,
    documents: "close",
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.listings === undefined ? {} : { listings: options.listings }),
    onSynced: ({ workspace, server, client }) => {
      const key = sessions.get(workspace, server).key;
      peaks.set(key, Math.max(peaks.get(key) ?? 0, client.documents.openCount));
    },
    onFileDone: (done, total, target) => {
      options.onProgress?.(done, total, `${target.workspace.name}/${target.server.name}`);
      options.onFileDone?.(target);
    },
    onSessionDone: async ({ workspace, server, items }) => {
      const session = sessions.get(workspace, server);
      const status = session.status();
      const openDocumentsAtEnd = status.open_documents;
      const answered = session.answeringToolchain;
      // The pin the server was held to, or the version of the toolchain that answered.
      const version = answered?.version ?? server.version;
      const toolchain =
        answered === null
          ? null
          : { title: answered.title, version, source: answered.source, path: status[TOOLCHAIN_PATH_FIELD] ?? "pinned", folders: status.projects ?? [] };
      await session.stop();
      const peakOpenDocuments = peaks.get(session.key) ?? 0;
      runs.push({ workspace, server, files: items.length, version, toolchain, peakOpenDocuments, openDocumentsAtEnd });
    },
  });
  // Sessions finish in any order; the report lists them in target order.
  const rank = (run: SessionRun) => targets.findIndex((t) => t.workspace === run.workspace && t.server === run.server);
  return { files, sessions: runs.sort((a, b) => rank(a) - rank(b)) };
}
