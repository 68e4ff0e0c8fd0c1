import type { ResolvedConfig, ResolvedWorkspace } from "../../config/types.js";
import { Deadline } from "../../contract/deadline.js";
import { BridgeError } from "../../contract/errors.js";
import type { ProjectHost } from "../../lsp/project-model.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import type { CallContext } from "../../targets/call-context.js";
import { openTarget, type OpenTarget } from "../../targets/open-target.js";
import type { ResolvedTarget } from "../../targets/resolve-target.js";
import { projectStateOf } from "../../disk-sync/project-state.js";
import { refreshFromListing } from "../../disk-sync/refresh-from-disk.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import { answerFromProject, keptAnswer } from "./project-answer.js";
import type { WorkspaceListing } from "../../files/file-stamp.js";

/** A target with its place in the run. */
export interface RunItem {
  readonly target: ResolvedTarget;
  readonly index: number;
}

export interface ProjectRunOptions {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  /** Close the documents the run opened to load projects once it is done (`check`). */
  readonly close: boolean;
  /** Aborts the run. */
  readonly signal: AbortSignal;
  /** Once a document the run opens is open (`check` counts the documents open at once). */
  readonly onSynced?: ((target: OpenTarget) => void) | undefined;
  /** A preview of changes (see `CallContext.overlay`): the disk is not looked at again. */
  readonly overlay?: ReadonlyMap<string, string> | undefined;
  /** The workspaces' listings the run's discovery took (`Discovery.listings`): the disk look takes them instead of listing again. */
  readonly listings?: ReadonlyMap<ResolvedWorkspace, WorkspaceListing> | undefined;
}

/** How a session's files are answered in one run: which from the project, and how. */
export interface ProjectPlan {
  /** The items answered from the project (by `answer`); the rest go file by file. */
  readonly placed: ReadonlySet<RunItem>;
  /** Whether the server was told of every change on disk for the rest (`openTarget` need not look again). */
  readonly refreshed: boolean;
  /** A placed item's answer. */
  answer(item: RunItem, context: CallContext): Promise<FileDiagnostics>;
  /** A placed item's answer when the bridge kept it (nothing asked, nothing read), else undefined. */
  kept(item: RunItem): FileDiagnostics | undefined;
  /** Ends the run's project pulls (after the last file). */
  end(): Promise<void>;
}

/**
 * The plan of a session's files for a server whose files the bridge watches. The disk is looked
 * at first and every change told to the server (`refreshFromListing`), so the server's program is
 * the disk's; then the adapter's project pulls (`ProjectModel.projectPulls`) place the files
 * they can answer without each being opened, each under its own project, and answer them.
 * Answers are kept for the session until a change on disk can reach them (`applyDiskChanges`),
 * so after an edit only the files it reaches are asked again.
 */
export async function planProjectRun(
  sessionClient: LspClient,
  items: readonly RunItem[],
  options: ProjectRunOptions,
  startDeadline: Deadline,
): Promise<ProjectPlan> {
  const [first] = items;
  if (!first || !sessionClient.bridgeWatchesFiles) return FILE_BY_FILE;
  const { signal } = options;
  // A preview looked at the disk just before it changed what the server sees.
  const { client, state, changed } = options.overlay
    ? { client: sessionClient, state: projectStateOf(sessionClient), changed: new Set<string>() }
    : await refreshFromListing(
        options.sessions,
        first.target,
        sessionClient,
        { deadline: startDeadline, signal },
        options.listings?.get(first.target.workspace),
      );
  const model = client.adapter.projectModel;
  if (!model) return { ...FILE_BY_FILE, refreshed: true };
  const targets = new Map(items.map((item) => [item.target.file.absolutePath, item.target]));
  const host: ProjectHost = {
    root: first.target.workspace.root,
    fileDeadline: () => Deadline.in(options.config.bridge.request_timeout_ms),
    logger: options.sessions.logger,
    open: async (path, requestOptions, scope) => {
      const sentBefore = client.documents.sentCount;
      const atLook = state.sentAtLook === sentBefore;
      const opened = await openTarget(
        {
          config: options.config,
          sessions: options.sessions,
          deadline: requestOptions.deadline,
          signal: requestOptions.signal ?? signal,
          scope,
          ...(options.overlay === undefined ? {} : { overlay: options.overlay }),
        },
        targets.get(path)!,
        { refreshed: true },
      );
      // Its own open alone was sent: the server's program is still the one the answers describe.
      if (atLook && client.documents.sentCount - sentBefore <= 1) state.sentAtLook = client.documents.sentCount;
      options.onSynced?.(opened);
    },
  };
  const pulls = model.projectPulls(host);
  try {
    // The pulls are told only of the files to ask: what the bridge kept is given as it was.
    const isKept = (item: RunItem) => keptAnswer(client, state, item.target, changed.has(item.target.file.absolutePath)) !== undefined;
    const kept = new Set(items.filter(isKept));
    const placedAt = state.generation;
    const placedPaths = await pulls.place(
      items.filter((item) => !kept.has(item)).map((item) => item.target.file.absolutePath),
      { deadline: startDeadline, signal },
    );
    return {
      placed: new Set([...kept, ...items.filter((item) => placedPaths.has(item.target.file.absolutePath))]),
      refreshed: true,
      answer: (item, context) =>
        answerFromProject(
          client,
          state,
          item.target,
          context,
          changed.has(item.target.file.absolutePath),
          (file, uri, fileOptions) => pulls.pull(file, uri, fileOptions),
          placedAt,
        ),
      kept: (item) => keptAnswer(client, state, item.target, changed.has(item.target.file.absolutePath)),
      end: () => pulls.end(options.close),
    };
  } catch (error) {
    await pulls.end(options.close);
    throw error;
  }
}

/** Every file by file: a single file, a server whose files the bridge does not watch, or one that answers no project. */
export const FILE_BY_FILE: ProjectPlan = {
  placed: new Set(),
  refreshed: false,
  answer: (item) => Promise.reject(new BridgeError("Internal", `${item.target.file.path} was not placed in a project`, { path: item.target.file.path })),
  kept: () => undefined,
  end: async () => {},
};
