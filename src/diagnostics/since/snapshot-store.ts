import { join } from "node:path";
import type { ResolvedConfig, ResolvedWorkspace } from "../../config/types.js";
import type { BridgeDiagnostic } from "../../contract/diagnostic-order.js";
import { BridgeError } from "../../contract/errors.js";
import type { ResolvedTarget } from "../../targets/resolve-target.js";
import type { SessionRegistry } from "../../sessions/session-registry.js";
import { configDigest } from "../../config/config-digest.js";
import { makeSnapshot, removeSnapshot, snapshotParent, type RevisionSnapshot } from "./revision-snapshot.js";
import type { ResolvedRevision } from "./resolve-revision.js";

/** Snapshots kept at once; the least recently used idle one goes first. */
const MAX_SNAPSHOTS = 4;

/** One file's settled diagnostics at the revision, with the content of each start line. */
export interface RevisionAnswer {
  readonly diagnostics: readonly BridgeDiagnostic[];
  /** `lineContents` of each diagnostic's start line, by 1-based line. */
  readonly lines: ReadonlyMap<number, string>;
}

/**
 * One revision's snapshot and what was learnt from it. Its answers never go stale: the snapshot
 * never changes, and the servers and configuration are those of the store's registry.
 */
export class SnapshotEntry {
  /** (snapshot workspace, server, path at the revision) → answer. */
  private readonly answers = new Map<string, RevisionAnswer>();
  private readonly workspaces = new Map<string, ResolvedWorkspace>();
  private readonly discoveries = new Map<string, Promise<ResolvedTarget[]>>();
  private users = 0;
  private releasing: Promise<void> = Promise.resolve();
  lastUsed = Date.now();

  constructor(
    readonly commit: string,
    readonly snapshot: RevisionSnapshot,
    private readonly sessions: SessionRegistry,
  ) {}

  /**
   * `workspace` as it is at the revision: same servers, settings and exclusions, rooted in the
   * snapshot, under a name of its own (`NAME@COMMIT12`) so that its sessions are apart.
   */
  workspaceFor(workspace: ResolvedWorkspace, prefix: string): ResolvedWorkspace {
    const found = this.workspaces.get(workspace.name);
    if (found) return found;
    const workspaceThen: ResolvedWorkspace = {
      ...workspace,
      name: `${workspace.name}@${this.commit.slice(0, 12)}`,
      root: join(this.snapshot.tree, prefix),
      // Its own code (a compiler in its linked node_modules) is searched for up to the tree's top.
      checkout: this.snapshot.tree,
      // The snapshot's build state is its own (never the checkout's: cargo would take one's
      // cached findings for the other's) and goes with it.
      state_dir: join(this.snapshot.dir, "state", String(this.workspaces.size)),
    };
    this.workspaces.set(workspace.name, workspaceThen);
    return workspaceThen;
  }

  /**
   * The snapshot's targets for a scope, found once: the snapshot never changes, so the same scope
   * (the same paths, the same server) always expands to the same files.
   */
  discovered(key: string, discover: () => Promise<ResolvedTarget[]>): Promise<ResolvedTarget[]> {
    let found = this.discoveries.get(key);
    if (!found) {
      found = discover();
      this.discoveries.set(key, found);
      found.catch(() => this.discoveries.delete(key));
    }
    return found;
  }

  answer(workspace: ResolvedWorkspace, server: string, path: string): RevisionAnswer | undefined {
    return this.answers.get(answerKey(workspace, server, path));
  }

  remember(workspace: ResolvedWorkspace, server: string, path: string, answer: RevisionAnswer): void {
    this.answers.set(answerKey(workspace, server, path), answer);
  }

  get inUse(): boolean {
    return this.users > 0;
  }

  /** Counts one call as a user, and makes the snapshot workspaces' sessions available to it when it needs them; pair with `release`. */
  async acquire(atRevision: readonly ResolvedWorkspace[], needsSessions: boolean): Promise<void> {
    this.users++;
    this.lastUsed = Date.now();
    // A call answered wholly from kept answers starts no session, so it need not wait for an
    // earlier call's sessions to finish stopping (a busy server's orderly stop can take seconds).
    if (!needsSessions) return;
    // Sessions being stopped by an earlier call's release are gone before they are made anew.
    await this.releasing;
    for (const workspaceThen of atRevision) this.sessions.addWorkspace(workspaceThen);
  }

  /**
   * Ends one call's use. When no call uses the snapshot any more its sessions are stopped: its
   * answers are cached, so they would only hold memory and `max_sessions` slots. Resolves once
   * they are stopped.
   */
  release(): Promise<void> {
    this.users--;
    this.lastUsed = Date.now();
    if (this.users > 0) return Promise.resolve();
    const atRevision = [...this.workspaces.values()];
    this.releasing = this.releasing.then(() => Promise.all(atRevision.map((workspaceThen) => this.sessions.removeWorkspace(workspaceThen)))).then(() => {});
    return this.releasing;
  }

  /** Stops the snapshot workspaces' sessions and removes the snapshot folder. */
  async dispose(): Promise<void> {
    await this.releasing;
    await Promise.all([...this.workspaces.values()].map((workspaceThen) => this.sessions.removeWorkspace(workspaceThen)));
    await removeSnapshot(this.snapshot.dir);
  }
}

/**
 * The snapshots of one registry (one bridge, one configuration), by commit, made once and kept
 * for the bridge's lifetime (CONTRACT §4.3), at most MAX_SNAPSHOTS of them; all are removed when
 * the registry closes, whatever ended the bridge short of SIGKILL (the next bridge sweeps those).
 */
class SnapshotStore {
  private readonly entries = new Map<string, Promise<SnapshotEntry>>();
  private readonly digest: string;
  private closed = false;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly sessions: SessionRegistry,
  ) {
    this.digest = configDigest(config);
    sessions.onClose(() => this.close());
  }

  /** The snapshot of `revision`, made on first use. */
  async entry(revision: ResolvedRevision): Promise<SnapshotEntry> {
    if (this.closed) throw new BridgeError("SessionDead", "the bridge is shutting down", {});
    // Configuration and pinned server versions are the registry's own; the digest keeps the key honest.
    const key = `${this.digest}\0${revision.top}\0${revision.commit}`;
    let pending = this.entries.get(key);
    if (!pending) {
      pending = makeSnapshot(snapshotParent(this.config), revision).then((snapshot) => new SnapshotEntry(revision.commit, snapshot, this.sessions));
      this.entries.set(key, pending);
      pending.catch(() => this.entries.delete(key));
      await this.evict(key);
    }
    const entry = await pending;
    entry.lastUsed = Date.now();
    return entry;
  }

  private async evict(keep: string): Promise<void> {
    const settled = await Promise.all(
      [...this.entries].filter(([key]) => key !== keep).map(async ([key, pending]) => ({ key, entry: await pending.catch(() => null) })),
    );
    const idle = settled.filter((item) => item.entry !== null && !item.entry.inUse).sort((a, b) => a.entry!.lastUsed - b.entry!.lastUsed);
    while (this.entries.size > MAX_SNAPSHOTS && idle.length > 0) {
      const oldest = idle.shift()!;
      this.entries.delete(oldest.key);
      await oldest.entry!.dispose();
    }
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map(async (pending) => (await pending.catch(() => null))?.dispose()));
  }
}

const stores = new WeakMap<SessionRegistry, SnapshotStore>();

/** The snapshot store of a registry, made on first use and closed with it. */
export function snapshotStoreOf(sessions: SessionRegistry): SnapshotStore {
  let store = stores.get(sessions);
  if (!store) {
    store = new SnapshotStore(sessions.config, sessions);
    stores.set(sessions, store);
  }
  return store;
}

function answerKey(workspace: ResolvedWorkspace, server: string, path: string): string {
  return JSON.stringify([workspace.name, server, path]);
}
