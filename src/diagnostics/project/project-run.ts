import type { ResolvedConfig, ResolvedWorkspace } from "../../config/types.js";
import { Deadline } from "../../contract/deadline.js";
import type { ProjectHost } from "../../lsp/adapters/server-adapter.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import type { CallContext } from "../../calls/call-context.js";
import { openTarget, type OpenTarget } from "../../calls/open-target.js";
import type { ResolvedTarget } from "../../calls/resolve-target.js";
import { runPool, type FirstFailure } from "../../calls/run-pool.js";
import { projectStateOf } from "../../calls/watched-files/project-state.js";
import { refreshFromDisk } from "../../calls/watched-files/refresh-from-disk.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { answerFromProject } from "./project-answer.js";

/** A target with its place in the run. */
export interface RunItem {
  readonly target: ResolvedTarget;
  readonly index: number;
}

export interface ProjectRunOptions {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  /** Files asked at once. */
  readonly inFlight: number;
  /** Close the documents the run opened to load projects once it is done (`check`). */
  readonly close: boolean;
  readonly failure: FirstFailure;
  /** Once a document the run opens is open (`check` counts the documents open at once). */
  readonly onSynced?: ((target: OpenTarget) => void) | undefined;
  /** A preview of changes (see `CallContext.overlay`): the disk is not looked at again. */
  readonly overlay?: ReadonlyMap<string, string> | undefined;
  /** The workspaces' listings the run's discovery took (`Discovery.listings`): the disk look takes them instead of listing again. */
  readonly listings?: ReadonlyMap<ResolvedWorkspace, readonly string[]> | undefined;
  /** Wraps the work of one file: its deadline, progress and the naming of its failure. */
  readonly eachFile: (item: RunItem, work: (context: CallContext) => Promise<FileDiagnostics>) => Promise<void>;
}

/**
 * Diagnostics of a session's files from its server's project, for a server whose files the
 * bridge watches. The disk is looked at first and every change told to the server
 * (`refreshFromDisk`), so the server's program is the disk's; then the adapter's project pulls
 * (`ServerAdapter.projectPulls`) place the files they can answer without each being opened, each
 * under its own project, and answer them. Answers are kept for the session until a change on
 * disk can reach them (`applyDiskChanges`), so after an edit only the files it reaches are asked
 * again. Returns the items left to the file-by-file path, and whether the server was told of
 * every change on disk for them; answers go to `results`.
 */
export async function diagnoseFromProject(
  sessionClient: LspClient,
  items: readonly RunItem[],
  results: FileDiagnostics[],
  options: ProjectRunOptions,
  startDeadline: Deadline,
): Promise<{ rest: RunItem[]; refreshed: boolean }> {
  const [first] = items;
  if (!first || !sessionClient.bridgeWatchesFiles) return { rest: [...items], refreshed: false };
  const signal = options.failure.signal;
  // A preview looked at the disk just before it changed what the server sees.
  const { client, state, changed } = options.overlay
    ? { client: sessionClient, state: projectStateOf(sessionClient), changed: new Set<string>() }
    : await refreshFromDisk(
        options.sessions,
        first.target,
        sessionClient,
        true,
        { deadline: startDeadline, signal },
        options.listings?.get(first.target.workspace),
      );
  if (!client.adapter.projectPulls) return { rest: [...items], refreshed: true };
  const targets = new Map(items.map((item) => [item.target.file.absolutePath, item.target]));
  const host: ProjectHost = {
    root: first.target.workspace.root,
    fileDeadline: () => Deadline.in(options.config.bridge.request_timeout_ms),
    open: async (path, requestOptions, scope) => {
      const target = targets.get(path)!;
      const sentBefore = client.documents.sentCount;
      const opened = await openTarget(
        {
          config: options.config,
          sessions: options.sessions,
          deadline: requestOptions.deadline,
          signal: requestOptions.signal ?? signal,
          scope,
          ...(options.overlay === undefined ? {} : { overlay: options.overlay }),
        },
        target,
        { refreshed: true },
      );
      // Its own open alone was sent: the server's program is still the one the answers describe.
      if (client.documents.sentCount - sentBefore <= 1) state.sentAtLook = client.documents.sentCount;
      options.onSynced?.(opened);
    },
  };
  const pulls = client.adapter.projectPulls(host);
  try {
    const placed = await pulls.place([...targets.keys()], { deadline: startDeadline, signal });
    const fromProject = items.filter((item) => placed.has(item.target.file.absolutePath));
    await runPool(fromProject, options.inFlight, options.failure, (item) =>
      options.eachFile(item, async (context) => {
        const path = item.target.file.absolutePath;
        return (results[item.index] = await answerFromProject(client, state, item.target, context, changed.has(path), (file, fileOptions) =>
          pulls.pull(file, fileOptions),
        ));
      }),
    );
    return { rest: items.filter((item) => !placed.has(item.target.file.absolutePath)), refreshed: true };
  } finally {
    await pulls.end(options.close);
  }
}
