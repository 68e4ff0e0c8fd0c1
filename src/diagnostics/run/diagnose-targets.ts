import type { ResolvedServer, ResolvedWorkspace } from "../../config/types.js";
import { Deadline } from "../../contract/deadline.js";
import { CallScope } from "../../contract/call-scope.js";
import { BridgeError } from "../../contract/errors.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import type { ResolvedConfig } from "../../config/types.js";
import type { ResolvedTarget } from "../../targets/resolve-target.js";
import { fileDiagnostics, type FileDiagnostics } from "./file-diagnostics.js";
import type { OpenTarget } from "../../targets/open-target.js";
import { FirstFailure, runPool } from "./run-pool.js";
import { runFileBatches } from "./file-batches.js";
import type { CallContext } from "../../targets/call-context.js";
import type { LspClient } from "../../lsp/lsp-client.js";
import { uncheckedFiles } from "../../languages/index.js";
import { FILE_BY_FILE, planProjectRun, type ProjectPlan, type ProjectRunOptions, type RunItem } from "./project-run.js";
import type { WorkspaceListing } from "../../files/file-stamp.js";

/**
 * What a run of many files does with each document once its diagnostics are read, chosen once by
 * the caller and passed down. `close`: closed (with the rest of its batch, for a server given a
 * batch at a time), so a large run never holds more than a batch open (`check`, a revision's
 * snapshot). `keep`: left open, so a repeated call on unchanged files sends no sync at all (the
 * `diagnostics` tool).
 */
type DocumentsAfterReading = "close" | "keep";

export interface DiagnoseTargetsOptions {
  /** At most this many files of one session are in flight (synced and awaited) at once. */
  readonly batchSize: number;
  /** Whether each document is closed once read, or kept open (see `DocumentsAfterReading`). */
  readonly documents: DocumentsAfterReading;
  /** Aborts the run: no file starts after it, and requests in flight are cancelled. */
  readonly signal?: AbortSignal;
  /** After each file is settled: files done so far, of `total`. */
  readonly onFileDone?: (done: number, total: number, target: ResolvedTarget) => void;
  /** Once the server holds a file's text, before the settle wait. */
  readonly onSynced?: (target: OpenTarget) => void;
  /** A preview of changes: the files' new texts, taken instead of the disk (see `CallContext.overlay`). */
  readonly overlay?: ReadonlyMap<string, string>;
  /** The workspaces' listings the targets' discovery took (`Discovery.listings`), for the disk look of a project run. */
  readonly listings?: ReadonlyMap<ResolvedWorkspace, WorkspaceListing>;
  /** After the last file of a session: `check` stops the session here to free its slot. */
  readonly onSessionDone?: (group: SessionGroup) => Promise<void>;
}

/** The targets of one (workspace, server) session, with their places in the run. */
interface SessionGroup {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly items: readonly { target: ResolvedTarget; index: number }[];
}

/**
 * Settled diagnostics of many files, in target order, through the one per-file pipeline
 * (`fileDiagnostics`): sessions side by side up to `max_sessions` (a session done with its files
 * may then give way to the next one's start), each with at most `batchSize` files in flight (a
 * batch at a time where the server's adapter asks for it: `runFileBatches`). The deadline is per
 * file, not per run: each file gets `request_timeout_ms` from the moment it starts (its session's
 * start included), so a 2,000-file folder never times out as a whole, while a file that does not
 * settle fails the run with `Timeout` naming it. The first failure stops the run (no new file
 * starts, files in flight are cancelled) and is thrown: a run never answers for some files when
 * another failed, so no partial answer can read as clean. The files of a toolchain the checkout
 * does not hold (`ResolvedServer.toolchain.refused`) are answered as not checked, with the reason.
 */
export async function diagnoseTargets(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  targets: readonly ResolvedTarget[],
  options: DiagnoseTargetsOptions,
): Promise<FileDiagnostics[]> {
  const results: FileDiagnostics[] = new Array(targets.length);
  const failure = new FirstFailure(options.signal);
  let done = 0;
  const eachFile = async (item: RunItem, work: (context: CallContext) => Promise<void>): Promise<void> => {
    const signal = failure.itemSignal();
    // Each file holds its document only while it is being answered; the cap may close it after.
    const scope = new CallScope();
    try {
      const deadline = Deadline.in(config.bridge.request_timeout_ms);
      await work({
        config,
        sessions,
        deadline,
        get signal() {
          return signal.signal;
        },
        scope,
        ...(options.overlay === undefined ? {} : { overlay: options.overlay }),
      });
    } catch (error) {
      throw namingFile(error, item.target);
    } finally {
      scope.close();
      signal.done();
    }
    options.onFileDone?.(++done, targets.length, item.target);
  };
  await runPool(groupBySession(targets), config.bridge.max_sessions, failure, async (whole) => {
    // The files its server cannot answer are listed as not checked, and never asked of it; a
    // session with none left is not started.
    const group = await withoutUnchecked(whole, (item, reason) => {
      results[item.index] = notCheckedAnswer(item.target, reason);
      options.onFileDone?.(++done, targets.length, item.target);
    });
    if (group.items.length === 0) return;
    // Held from its first file to its last, so that between two files the session never gives
    // way to another start (max_sessions); released after, so that a later group's may take its slot.
    const release = sessions.get(group.workspace, group.server).hold();
    try {
      const plan = await planSession(group, {
        config,
        sessions,
        close: options.documents === "close",
        signal: failure.signal,
        onSynced: options.onSynced,
        overlay: options.overlay,
        listings: options.listings,
      });
      try {
        // What the bridge kept is given at once, without a file's run (no deadline, no scope):
        // a warm call over an unchanged project asks nothing at all.
        const asked = group.items.filter((item) => {
          const kept = plan.placed.has(item) ? plan.kept(item) : undefined;
          if (kept === undefined) return true;
          results[item.index] = kept;
          options.onFileDone?.(++done, targets.length, item.target);
          return false;
        });
        // The files its project answers first, then the rest one by one (`runFileBatches`).
        await runPool(
          asked.filter((item) => plan.placed.has(item)),
          options.batchSize,
          failure,
          (item) =>
            eachFile(item, async (context) => {
              results[item.index] = await plan.answer(item, context);
            }),
        );
        await runFileBatches(
          asked.filter((item) => !plan.placed.has(item)),
          { batchSize: options.batchSize, close: options.documents === "close", together: plan.inBatches },
          failure,
          (item, batch) =>
            eachFile(item, async (context) => {
              results[item.index] = await fileDiagnostics(context, item.target, {
                onSynced: options.onSynced,
                refreshed: plan.refreshed,
                ...(batch === undefined ? {} : { batch }),
              });
            }),
        );
      } finally {
        await plan.end();
      }
    } finally {
      release();
    }
    await options.onSessionDone?.(group);
  });
  return results;
}

/** A session's plan, and whether the files its project does not answer go a batch at a time (`runFileBatches`). */
interface SessionPlan extends ProjectPlan {
  readonly inBatches: boolean;
}

/**
 * How the group's files are answered (see `planProjectRun`): from the project for a server whose
 * files the bridge watches (its adapter says so), and only for more than one file: a single file
 * goes file by file (a document kept open), where `openTarget` reads it, starts the session and
 * looks quickly at the disk, as for any other one-file call. The session is started here, within
 * one file's deadline, as the first file would start it.
 */
async function planSession(group: SessionGroup, options: ProjectRunOptions): Promise<SessionPlan> {
  if (group.items.length === 1) return { ...FILE_BY_FILE, inBatches: false };
  const deadline = Deadline.in(options.config.bridge.request_timeout_ms);
  // The session is held until the plan ends, so idle_stop_s never counts it as quiet.
  const hold = new CallScope();
  try {
    let client: LspClient;
    try {
      client = await options.sessions.readyClient(group.workspace, group.server, deadline, hold);
    } catch (error) {
      throw namingFile(error, group.items[0]!.target);
    }
    const plan = await planProjectRun(client, group.items, options, deadline);
    return { ...plan, inBatches: client.adapter.documentChangesCancelWork, end: () => plan.end().finally(() => hold.close()) };
  } catch (error) {
    hold.close();
    throw error;
  }
}

/** The group less the files its server cannot check (`uncheckedFiles`), each handed to `skip` with the reason. */
async function withoutUnchecked(group: SessionGroup, skip: (item: SessionGroup["items"][number], reason: string) => void): Promise<SessionGroup> {
  // A toolchain the checkout does not hold answers none of its files, and no other answers in its place.
  const refused = group.server.toolchain?.refused ?? null;
  if (refused !== null) {
    for (const item of group.items) skip(item, refused);
    return { ...group, items: [] };
  }
  const unchecked = await uncheckedFiles(group.server, group.workspace.root);
  if (unchecked === null) return group;
  const items = group.items.filter((item) => {
    const reason = unchecked(item.target.file.path);
    if (reason !== null) skip(item, reason);
    return reason === null;
  });
  return { ...group, items };
}

/** A file listed as not checked: no diagnostics, and why (never counted clean). */
function notCheckedAnswer(target: ResolvedTarget, reason: string): FileDiagnostics {
  return { workspace: target.workspace, server: target.server, file: target.file, text: "", diagnostics: [], notChecked: reason };
}

/** A timeout says which file did not settle; a cancellation stays what it is. */
function namingFile(error: unknown, target: ResolvedTarget): unknown {
  if (!(error instanceof BridgeError) || error.code !== "Timeout" || error.details.cancelled === true) return error;
  return new BridgeError(
    "Timeout",
    `${target.file.path} (${target.workspace.name}/${target.server.name}) did not settle: ${error.message}`,
    { ...error.details, path: target.file.path, workspace: target.workspace.name, server: target.server.name },
    { cause: error },
  );
}

/** Targets arrive ordered by (workspace, server), so each group is a run of neighbours. */
function groupBySession(targets: readonly ResolvedTarget[]): SessionGroup[] {
  const groups: { workspace: ResolvedWorkspace; server: ResolvedServer; items: { target: ResolvedTarget; index: number }[] }[] = [];
  targets.forEach((target, index) => {
    const last = groups[groups.length - 1];
    if (last && last.workspace === target.workspace && last.server === target.server) last.items.push({ target, index });
    else groups.push({ workspace: target.workspace, server: target.server, items: [{ target, index }] });
  });
  return groups;
}
