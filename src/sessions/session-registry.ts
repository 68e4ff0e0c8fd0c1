import { BridgeError } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { Deadline } from "../contract/deadline.js";
import type { LspClient } from "../lsp/lsp-client.js";
import type { SupervisionTimings } from "../supervision/index.js";
import { Session, type SessionHolder } from "./session.js";

/**
 * Every configured (workspace, server) pair, each a `Session` created idle. It enforces
 * `max_sessions` on starts and ends every process tree on `closeAll()`.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly cleanups: (() => Promise<void>)[] = [];
  private closing = false;

  constructor(
    readonly config: ResolvedConfig,
    private readonly logger: Logger,
    private readonly timings?: Partial<SupervisionTimings>,
  ) {
    for (const workspace of config.workspaces) {
      for (const serverName of workspace.servers) {
        const server = config.servers.find((candidate) => candidate.name === serverName);
        if (!server) continue;
        this.sessions.set(
          keyOf(workspace.name, server.name),
          new Session({
            workspace,
            server,
            logger,
            timings,
            maxOpenDocuments: config.bridge.max_open_documents,
            idleStopMs: config.bridge.idle_stop_s * 1000,
            startTimeoutMs: config.bridge.start_timeout_ms,
          }),
        );
      }
    }
  }

  /** The session of a pair; every configured pair has one. */
  get(workspace: ResolvedWorkspace, server: ResolvedServer): Session {
    const session = this.sessions.get(keyOf(workspace.name, server.name));
    if (!session) throw new BridgeError("UnknownServer", `workspace ${workspace.name} has no server ${server.name}`, {});
    return session;
  }

  /**
   * The ready client of a pair, starting it when idle and a slot is free; `holder` (the call's
   * scope) keeps the session from being stopped as idle until the call ends.
   */
  async readyClient(workspace: ResolvedWorkspace, server: ResolvedServer, deadline: Deadline, holder?: SessionHolder): Promise<LspClient> {
    const session = this.get(workspace, server);
    this.assertOpen();
    if (session.currentState === "idle") this.assertSlotFree();
    return session.readyClient(deadline, holder);
  }

  /** Restarts a pair; a restart of a session that is not live needs a free slot too. */
  async restart(workspace: ResolvedWorkspace, server: ResolvedServer, deadline: Deadline): Promise<Session> {
    const session = this.get(workspace, server);
    this.assertOpen();
    if (!session.isLive) this.assertSlotFree();
    await session.restart(deadline);
    return session;
  }

  /** All sessions in configuration order (workspace, then server). */
  all(): { workspace: ResolvedWorkspace; server: ResolvedServer; session: Session }[] {
    const rows = [];
    for (const workspace of this.config.workspaces) {
      for (const serverName of workspace.servers) {
        const server = this.config.servers.find((candidate) => candidate.name === serverName);
        const session = this.sessions.get(keyOf(workspace.name, serverName));
        if (server && session) rows.push({ workspace, server, session });
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
      const key = keyOf(workspace.name, serverName);
      if (!server || this.sessions.has(key)) continue;
      this.sessions.set(
        key,
        new Session({
          workspace,
          server,
          logger: this.logger,
          timings: this.timings,
          maxOpenDocuments: this.config.bridge.max_open_documents,
          startTimeoutMs: this.config.bridge.start_timeout_ms,
        }),
      );
    }
  }

  /** Stops the sessions `addWorkspace` made for `workspace` (their trees gone) and forgets them. */
  async removeWorkspace(workspace: ResolvedWorkspace): Promise<void> {
    const keys = workspace.servers.map((serverName) => keyOf(workspace.name, serverName));
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

  private assertSlotFree(): void {
    const live = [...this.sessions.values()].filter((session) => session.isLive).length;
    const max = this.config.bridge.max_sessions;
    if (live >= max) {
      throw new BridgeError("SessionLimit", `${live} sessions are live and max_sessions is ${max}`, { live, max_sessions: max });
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new BridgeError("SessionDead", "the bridge is shutting down", {});
  }
}

function keyOf(workspace: string, server: string): string {
  return JSON.stringify([workspace, server]);
}
