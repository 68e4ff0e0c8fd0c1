import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../../config/types.js";
import { compileExclude } from "../../config/exclude-matcher.js";
import { startLines } from "../findings/fingerprint.js";
import { diagnoseTargets } from "../run/diagnose-targets.js";
import { discoverInWorkspace, type Discovery } from "../../targets/discover-targets.js";
import { runCheck, type DiagnosticsRun } from "../run/run-check.js";
import { type ResolvedTarget, sessionPairs } from "../../targets/resolve-target.js";
import type { FileDiagnostics } from "../run/file-diagnostics.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import { renamesSince } from "./renames.js";
import { resolveRevision } from "./resolve-revision.js";
import { snapshotStoreOf, type RevisionAnswer, type SnapshotEntry } from "./snapshot-store.js";

interface DiagnoseSinceOptions {
  /** The git revision as the caller gave it. */
  readonly revision: string;
  /** Only this server's files, as for the current tree. */
  readonly serverName?: string | undefined;
  readonly batchSize: number;
  readonly signal?: AbortSignal | undefined;
  /** After each file of either tree: files done so far, of both trees' total. */
  readonly onFileDone?: (done: number, total: number, target: ResolvedTarget) => void;
  /** Which of the revision's files to check, by workspace and path now (`check --shard`); default all. */
  readonly keep?: (workspace: ResolvedWorkspace, currentPath: string) => boolean;
  /**
   * What the working tree's run does: `stop-and-report` each session after its last file, with
   * every document closed once read (`runCheck`, as `check` runs); or `keep-open` the sessions
   * and documents, as the tool's calls do.
   */
  readonly workingTree: "stop-and-report" | "keep-open";
}

/** One file's answer at the revision, placed in its configured workspace at its old path. */
export interface RevisionFile {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  /** Relative to the workspace root at the revision. */
  readonly path: string;
  readonly answer: RevisionAnswer;
}

export interface SinceAnswers {
  readonly since: { readonly revision: string; readonly commit: string };
  /** The working tree's run: its answers in target order, and in `check`'s mode its sessions. */
  readonly current: DiagnosticsRun;
  /** The revision's answers, in target order. */
  readonly revision: RevisionFile[];
  /** Where a file of the revision is now (git's renames), else its old path. */
  readonly currentPath: (workspace: string, revisionPath: string) => string;
}

/**
 * Checks a discovery twice (CONTRACT §4.3): in the working tree (its targets) and in a
 * snapshot of the revision, with the same servers and configuration, through the same pipeline.
 * The revision is resolved in each workspace's checkout before any server starts. The snapshot's
 * scope is the given paths at the revision (renamed files at their old paths), plus the old paths
 * of every file in scope now that git says was renamed, minus files renamed out of the scope.
 * Files whose revision answers are cached are not asked again, so a repeated call costs only the
 * working tree. The two trees run side by side when the free sessions allow, else one after the
 * other; the first failure in either stops both and is thrown.
 */
export async function diagnoseSince(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  discovery: Discovery,
  options: DiagnoseSinceOptions,
): Promise<SinceAnswers> {
  const { scope, targets: current } = discovery;
  const store = snapshotStoreOf(sessions);
  // Every revision is resolved (and every bad one refused) before any server starts.
  const revisions = [];
  for (const { workspace, paths } of scope) revisions.push({ workspace, paths, revision: await resolveRevision(workspace, options.revision) });

  let total: number | null = null;
  let done = 0;
  let last: ResolvedTarget | null = null;
  // Files may finish before the snapshot is ready and the total known: they are reported with the next.
  const tick = (target: ResolvedTarget) => {
    done++;
    last = target;
    if (total !== null) options.onFileDone?.(done, total, target);
  };
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const failing = <T>(run: Promise<T>) => run.catch((error: unknown) => (stop.abort(), Promise.reject(error)));
  // The snapshot needs a session for each (workspace, server) the working tree needs (a server that
  // only files deleted since would need is the rare exception). When that many slots are free
  // beside the working tree's, the working tree starts now, while the snapshot is made: on a cold
  // first call that hides the snapshot's making behind the servers' start.
  const sideBySide = sessions.liveCount() + 2 * sessionPairs(current).length <= config.bridge.max_sessions;
  const runCurrent = (): Promise<DiagnosticsRun> => runWorkingTree(config, sessions, current, discovery.listings, options, signal, tick);
  const early = sideBySide ? failing(runCurrent()) : null;
  early?.catch(() => {});

  const entries: SnapshotEntry[] = [];
  try {
    const plans: WorkspacePlan[] = [];
    for (const { workspace, paths, revision } of revisions) {
      const entry = await store.entry(revision);
      const atRevision = entry.workspaceFor(workspace, revision.prefix);
      const renames = inWorkspace(await renamesSince(revision.top, revision.commit, entry.snapshot.dir), revision.prefix);
      const excluded = compileExclude(workspace.exclude);
      const files = entry.snapshot.files.flatMap((path) => {
        const inside = underPrefix(path, revision.prefix);
        return inside === null || excluded(inside) ? [] : [inside];
      });
      plans.push({ workspace, atRevision, entry, commit: revision.commit, renames, files, paths, now: new Set() });
    }
    for (const target of current) plans.find((plan) => plan.workspace === target.workspace)?.now.add(target.file.path);

    const revisionConfig: ResolvedConfig = { ...config, workspaces: plans.map((plan) => plan.atRevision) };
    const targets: { plan: WorkspacePlan; target: ResolvedTarget }[] = [];
    for (const plan of plans) {
      const paths = revisionPaths(plan);
      const found = await plan.entry.discovered(JSON.stringify([plan.atRevision.name, options.serverName ?? null, paths]), () =>
        discoverInWorkspace(revisionConfig, plan.atRevision, options.serverName, paths, plan.files),
      );
      const movedTo = new Map([...plan.renames].map(([to, from]) => [from, to]));
      for (const target of found) {
        const now = movedTo.get(target.file.path);
        // A file renamed out of the scope took its findings along: they are not resolved.
        if (now !== undefined && !plan.now.has(now)) continue;
        if (options.keep && !options.keep(plan.workspace, now ?? target.file.path)) continue;
        targets.push({ plan, target });
      }
    }
    const toRun = targets.filter(({ plan, target }) => plan.entry.answer(plan.atRevision, target.server.name, target.file.path) === undefined);
    total = toRun.length + current.length;
    if (done > 0 && last !== null) options.onFileDone?.(done, total, last);

    entries.push(...new Set(plans.map((plan) => plan.entry)));
    await Promise.all(
      entries.map((entry) =>
        entry.acquire(
          plans.filter((plan) => plan.entry === entry).map((plan) => plan.atRevision),
          toRun.some(({ plan }) => plan.entry === entry),
        ),
      ),
    );
    const runRevision = async () => {
      if (toRun.length === 0) return;
      const answers = await diagnoseTargets(
        revisionConfig,
        sessions,
        toRun.map(({ target }) => target),
        {
          batchSize: options.batchSize,
          // Whoever asked, a snapshot's answers are kept (`remember`) and its documents never asked about again.
          documents: "close",
          signal,
          onFileDone: (_done, _total, target) => tick(target),
        },
      );
      answers.forEach((answer, index) => {
        const { plan } = toRun[index]!;
        plan.entry.remember(plan.atRevision, answer.server.name, answer.file.path, revisionAnswer(answer));
      });
    };
    let now: DiagnosticsRun;
    if (early !== null) {
      [, now] = await Promise.all([failing(runRevision()), early]);
    } else {
      // Not enough free sessions for both trees at once: the revision first, its sessions then
      // stopped (their slots free) before the working tree's start.
      await runRevision();
      await Promise.all(releaseAll(entries));
      now = await runCurrent();
    }
    const revision = targets.map(({ plan, target }) => ({
      workspace: plan.workspace,
      server: target.server,
      path: target.file.path,
      answer: plan.entry.answer(plan.atRevision, target.server.name, target.file.path)!,
    }));
    const byName = new Map(plans.map((plan) => [plan.workspace.name, plan]));
    return {
      since: { revision: options.revision, commit: plans[0]?.commit ?? "" },
      current: now,
      revision,
      currentPath: (workspace, revisionPath) => byName.get(workspace)?.renames.get(revisionPath, "to") ?? revisionPath,
    };
  } catch (error) {
    // The working tree's run may still be going: it stops, and ends before the call does.
    stop.abort();
    await early?.catch(() => {});
    throw error;
  } finally {
    // A failed call need not wait for the snapshot's sessions to stop; they stop all the same.
    for (const stopping of releaseAll(entries)) stopping.catch(() => {});
  }
}

interface WorkspacePlan {
  readonly workspace: ResolvedWorkspace;
  readonly atRevision: ResolvedWorkspace;
  readonly entry: SnapshotEntry;
  readonly commit: string;
  readonly renames: Renames;
  /** What the commit tracks under the workspace root, relative to it, `exclude` applied. */
  readonly files: readonly string[];
  readonly paths: readonly string[];
  /** The paths of the current tree's targets. */
  readonly now: Set<string>;
}

/** Renames inside one workspace, both ways. */
class Renames implements Iterable<[string, string]> {
  private readonly back = new Map<string, string>();
  constructor(private readonly forth: Map<string, string>) {
    for (const [to, from] of forth) this.back.set(from, to);
  }
  /** The path at the revision of a file now ("from"), or where a file of the revision is now ("to"). */
  get(path: string, direction: "from" | "to"): string | undefined {
    return direction === "from" ? this.forth.get(path) : this.back.get(path);
  }
  [Symbol.iterator](): Iterator<[string, string]> {
    return this.forth[Symbol.iterator]();
  }
}

/** Git's renames (top-level relative, now → then) that stay inside the workspace, made root-relative. */
function inWorkspace(renames: Map<string, string>, prefix: string): Renames {
  const inside = new Map<string, string>();
  for (const [to, from] of renames) {
    const now = underPrefix(to, prefix);
    const then = underPrefix(from, prefix);
    if (now !== null && then !== null) inside.set(now, then);
  }
  return new Renames(inside);
}

/** The given paths as the snapshot has them: folders as they are, renamed files at their old path. */
function revisionPaths(plan: WorkspacePlan): string[] {
  const files = new Set(plan.files);
  const paths = new Set<string>();
  for (const path of plan.paths) {
    if (path === "") paths.add(".");
    else if (plan.renames.get(path, "from") !== undefined) paths.add(plan.renames.get(path, "from")!);
    else if (files.has(path) || plan.files.some((file) => file.startsWith(`${path}/`))) paths.add(path);
  }
  for (const path of plan.now) {
    const then = plan.renames.get(path, "from");
    if (then !== undefined && files.has(then)) paths.add(then);
  }
  return [...paths];
}

function underPrefix(path: string, prefix: string): string | null {
  if (prefix === "") return path;
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : null;
}

function revisionAnswer(answer: FileDiagnostics): RevisionAnswer {
  return { diagnostics: answer.diagnostics, lines: startLines(answer) };
}

/** The working tree's targets, checked as `options.workingTree` says, `tick` after each file. */
async function runWorkingTree(
  config: ResolvedConfig,
  sessions: SessionRegistry,
  targets: readonly ResolvedTarget[],
  listings: Discovery["listings"],
  options: DiagnoseSinceOptions,
  signal: AbortSignal,
  tick: (target: ResolvedTarget) => void,
): Promise<DiagnosticsRun> {
  if (options.workingTree === "stop-and-report")
    return runCheck(config, sessions, targets, { batchSize: options.batchSize, signal, onFileDone: tick, listings });
  const files = await diagnoseTargets(config, sessions, targets, {
    batchSize: options.batchSize,
    documents: "keep",
    signal,
    listings,
    onFileDone: (_done, _total, target) => tick(target),
  });
  return { files, sessions: [] };
}

function releaseAll(entries: SnapshotEntry[]): Promise<void>[] {
  return entries.splice(0).map((entry) => entry.release());
}
