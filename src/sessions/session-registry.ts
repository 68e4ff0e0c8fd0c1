import { BridgeError } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { Deadline } from "../contract/deadline.js";
import type { LspClient } from "../lsp/lsp-client.js";
import type { SupervisionTimings } from "../supervision/index.js";
import { previewHolding } from "./preview-reservation.js";
import { Session } from "./session.js";
import type { SessionTimings } from "./session-timings.js";
import type { CallScope } from "../contract/call-scope.js";

/** The waits of a registry's sessions and of their supervisors, each with its defaults: tests shorten them. */
interface RegistryTimings {
  readonly session?: Partial<SessionTimings>;
  readonly supervision?: Partial<SupervisionTimings>;
}

/**
 * Every configured (workspace, server) pair, each a `Session` created idle. It enforces
 * `max_sessions` on starts, making idle sessions give way (least recently used first), and ends
 * every process tree on `closeAll()`.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly cleanups: (() => Promise<void>)[] = [];
  private closing = false;

  constructor(
    readonly config: ResolvedConfig,
    readonly logger: Logger,
    private readonly timings: RegistryTimings = {},
  ) {
    for (const workspace of config.workspaces) {
      for (const serverName of workspace.servers) {
        const server = config.servers.find((candidate) => candidate.name === serverName);
        if (server) this.add(workspace, server, config.bridge.idle_stop_s * 1000);
      }
    }
  }

  /**
   * The session of a pair; every configured pair has one. A server entry with a toolchain of its
   * own (`ResolvedServer.toolchain`: a project's own compiler) gets its session on first use,
   * beside the pair's.
   */
  get(workspace: ResolvedWorkspace, server: ResolvedServer): Session {
    const session = this.sessions.get(keyOf(workspace.name, server));
    if (session) return session;
    if (server.toolchain !== undefined && this.sessions.has(keyOf(workspace.name, { name: server.name }))) {
      this.assertOpen();
      return this.add(workspace, server, this.idleStopMs(workspace));
    }
    throw new BridgeError("UnknownServer", `workspace ${workspace.name} has no server ${server.name}`, {});
  }

  /**
   * The ready client of a pair, starting it when idle; `scope` (the call's) keeps the
   * session from being stopped as idle, or made to give way, until the call ends. A start takes a
   * free slot, or the slot of the least recently used session that no call holds (stopped in
   * order first, as an idle stop does); `SessionLimit` only when every live session is held.
   */
  async readyClient(workspace: ResolvedWorkspace, server: ResolvedServer, deadline: Deadline, scope?: CallScope): Promise<LspClient> {
    const session = this.get(workspace, server);
    // A dead session answers SessionDead at once: no other session gives way for it.
    if (session.currentState === "dead") return session.readyClient(deadline, scope);
    return this.withSlot(session, deadline, () => session.readyClient(deadline, scope));
  }

  /**
   * Runs `work` with the sessions of `pairs` to itself (a preview of changes, CONTRACT §4.4): each
   * reserved (`PreviewReservation`) in key order, so that two previews never wait on each other in a
   * circle; every other call on them waits until `work` has ended, however it ends.
   */
  async exclusively<T>(pairs: readonly { workspace: ResolvedWorkspace; server: ResolvedServer }[], deadline: Deadline, work: () => Promise<T>): Promise<T> {
    const sessions = [...new Set(pairs.map(({ workspace, server }) => this.get(workspace, server)))].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
    return previewHolding(
      sessions.map((session) => session.preview),
      deadline,
      work,
    );
  }

  /** Restarts a pair (`reason`, for the log: why the bridge did); a restart of a session that is not live needs a slot too. */
  async restart(workspace: ResolvedWorkspace, server: ResolvedServer, deadline: Deadline, reason = "session_restart"): Promise<Session> {
    const session = this.get(workspace, server);
    await this.withSlot(session, deadline, () => session.restart(deadline, reason));
    return session;
  }

  /**
   * Ends the sessions of a pair's further toolchains (their trees gone) and forgets them, dead
   * ones too: each starts afresh on the next call that needs it (`session_restart`).
   */
  async forgetToolchains(workspace: ResolvedWorkspace, serverName: string): Promise<void> {
    const keys = [...this.sessions.entries()]
      .filter(([, session]) => session.workspace === workspace && session.server.name === serverName && session.server.toolchain !== undefined)
      .map(([key]) => key);
    await Promise.all(keys.map((key) => this.sessions.get(key)?.close()));
    for (const key of keys) this.sessions.delete(key);
  }

  /** All sessions in configuration order (workspace, then server: the pair's, then its toolchains' in the order they began). */
  all(): { workspace: ResolvedWorkspace; server: ResolvedServer; session: Session }[] {
    const rows = [];
    for (const workspace of this.config.workspaces) {
      for (const serverName of workspace.servers) {
        for (const session of this.sessions.values()) {
          if (session.workspace === workspace && session.server.name === serverName) rows.push({ workspace, server: session.server, session });
        }
      }
    }
    return rows;
  }

  /**
   * Sessions for a workspace outside the configuration (a revision's snapshot, CONTRACT §4.3),
   * one per server it names, under its own unique name: they count against `max_sessions` and end
   * with `closeAll` like every other, but `session_status` lists only configured pairs.
   */
  addWorkspace(workspace: ResolvedWorkspace): void {
    this.assertOpen();
    for (const serverName of workspace.servers) {
      const server = this.config.servers.find((candidate) => candidate.name === serverName);
      if (server && !this.sessions.has(keyOf(workspace.name, server))) this.add(workspace, server, 0);
    }
  }

  /** Stops the sessions `addWorkspace` made for `workspace`, and those of its toolchains (their trees gone), and forgets them. */
  async removeWorkspace(workspace: ResolvedWorkspace): Promise<void> {
    const keys = [...this.sessions.entries()].filter(([, session]) => session.workspace.name === workspace.name).map(([key]) => key);
    await Promise.all(keys.map((key) => this.sessions.get(key)?.close()));
    for (const key of keys) this.sessions.delete(key);
  }

  /** Live sessions now (starting or ready), configured or added. */
  liveCount(): number {
    return [...this.sessions.values()].filter((session) => session.isLive).length;
  }

  /** Runs `cleanup` at the end of `closeAll`, once every session's tree is gone. */
  onClose(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Stops every session; no new session starts afterwards, and callers waiting on one get `SessionDead`. */
  async closeAll(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
    await Promise.all(this.cleanups.splice(0).map((cleanup) => cleanup().catch(() => {})));
  }

  /**
   * Runs `start` once `session` may start (or is live already) within `max_sessions`, having made
   * the least recently used unheld session give way when every slot is taken. `start` is called in
   * the same turn as the count that found room, so the session is live (counted) before any other
   * start looks; `start` must make it live before its first await, as `Session` does.
   */
  private async withSlot<T>(session: Session, deadline: Deadline, start: () => Promise<T>): Promise<T> {
    for (;;) {
      this.assertOpen();
      // A session that is stopping still holds its slot; once stopped it needs one again.
      const stopping = session.stopping();
      if (stopping) {
        await deadline.race(stopping, `${session.key} to finish stopping`);
        continue;
      }
      if (session.isLive) return start();
      const live = [...this.sessions.values()].filter((candidate) => candidate.isLive);
      const max = this.config.bridge.max_sessions;
      if (live.length < max) return start();
      const victim = leastRecentlyUsed(live);
      // Another start made one give way already: its slot may be this one's once it is stopped.
      const leaving = victim ? null : live.map((candidate) => candidate.stopping()).find((stop) => stop !== null);
      if (leaving) {
        await deadline.race(leaving, "a session to give way");
        continue;
      }
      if (!victim) {
        throw new BridgeError("SessionLimit", `${live.length} sessions are live, every one in use by a call, and max_sessions is ${max}`, {
          live: live.length,
          max_sessions: max,
          sessions: live.map((candidate) => candidate.key),
        });
      }
      await deadline.race(victim.giveWay(), `${victim.key} to give way`);
    }
  }

  private add(workspace: ResolvedWorkspace, server: ResolvedServer, idleStopMs: number): Session {
    const session = new Session({
      workspace,
      server,
      logger: this.logger,
      timings: this.timings.session,
      supervision: this.timings.supervision,
      maxOpenDocuments: this.config.bridge.max_open_documents,
      idleStopMs,
      startTimeoutMs: this.config.bridge.start_timeout_ms,
    });
    this.sessions.set(keyOf(workspace.name, server), session);
    return session;
  }

  /** A configured workspace's sessions stop when idle as configured; a snapshot's live only while it is used. */
  private idleStopMs(workspace: ResolvedWorkspace): number {
    return this.config.workspaces.includes(workspace) ? this.config.bridge.idle_stop_s * 1000 : 0;
  }

  private assertOpen(): void {
    if (this.closing) throw new BridgeError("SessionDead", "the bridge is shutting down", {});
  }
}

/** The session that has gone unused longest among those no call holds, or null. */
function leastRecentlyUsed(sessions: readonly Session[]): Session | null {
  let best: { session: Session; since: number } | null = null;
  for (const session of sessions) {
    const since = session.givesWaySince();
    if (since !== null && (best === null || since < best.since)) best = { session, since };
  }
  return best?.session ?? null;
}

/** A session's key: the workspace's name, the server's, and its toolchain's when it has its own. */
function keyOf(workspace: string, server: Pick<ResolvedServer, "name" | "toolchain">): string {
  const toolchain = server.toolchain;
  return JSON.stringify(toolchain === undefined ? [workspace, server.name] : [workspace, server.name, toolchain.key, toolchain.refused]);
}
