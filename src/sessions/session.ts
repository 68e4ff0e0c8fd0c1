import { BridgeError } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { CallScope } from "../contract/call-scope.js";
import { Deadline, type LoadWatch } from "../contract/deadline.js";
import type { LspClient } from "../lsp/lsp-client.js";
import { setTimeout as delay } from "node:timers/promises";
import type { ExitInfo, MemoryOverCap, SupervisedServer, SupervisionTimings } from "../supervision/index.js";
import type { ToolchainReport } from "../lsp/project-model.js";
import { IdleTimer } from "./idle-timer.js";
import { PreviewReservation } from "./preview-reservation.js";
import { sessionDeadError, sessionExit, type SessionExit } from "./session-exit.js";
import { startServer, type StartRecord } from "./session-start.js";
import { holdsProcesses, sessionStatus, stateOf, toolchainFolder, type SessionPhase, type SessionState, type SessionStatus } from "./session-status.js";
import { resolveSessionTimings, type SessionTimings } from "./session-timings.js";
import { startFailure, withFinalStderr } from "./start-failure.js";
import { StderrTail } from "./stderr-tail.js";

interface SessionOptions {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly logger: Logger;
  /** `max_open_documents`: how many documents the session keeps open in its server. */
  readonly maxOpenDocuments: number;
  /** `idle_stop_s` in ms: a session with no call for this long is stopped in order; 0: never. */
  readonly idleStopMs?: number;
  /**
   * `start_timeout_ms`: the start (spawn, initialize, pin) must finish within it, whatever the
   * deadline of the call that began it; and until it has passed since the start, the server's
   * work-done progress counts as its load, which calls wait out (see `Deadline`).
   */
  readonly startTimeoutMs: number;
  readonly timings?: Partial<SessionTimings>;
  readonly supervision?: Partial<SupervisionTimings>;
}

/**
 * One (workspace, server) session: a supervised server process and its LSP client. It starts
 * on first use, is `ready` only after its version matched the pin, and once dead stays dead
 * until `restart()`; it is never respawned behind the caller's back. While it stops, callers
 * wait for what comes after (the restarted session, or `SessionDead` once it is closed): none
 * is ever handed the client that is being shut down.
 */
export class Session implements LoadWatch {
  private phase: SessionPhase = "idle";
  private starting: Promise<LspClient> | null = null;
  // The stop (or restart) in progress; callers wait on it before they look at the session.
  private transition: Promise<void> | null = null;
  private closed = false;
  private process: SupervisedServer | null = null;
  private client: LspClient | null = null;
  private reportedVersion: string | null = null;
  private toolchainReport: ToolchainReport | null = null;
  // The project roots found at the last start (relative folders); null: the server takes none.
  private projects: string[] | null = null;
  private readyAt: number | null = null;
  // When the running start began: its load counts until startTimeoutMs after it.
  private startedAt: number | null = null;
  private restartCount = 0;
  private lastExit: SessionExit | null = null;
  /** The entry as the known server its first start found it to be (by its serverInfo), or null. */
  private recognisedAs: ResolvedServer | null = null;
  private lastError: BridgeError | null = null;
  private stderr = new StderrTail();
  private readonly idle: IdleTimer;
  private readonly timings: SessionTimings;
  // Calls using the session now: while there is one, it never gives way to another session.
  private holders = 0;
  // When a call last asked for the session or let go of it: the least recent gives way first.
  private lastUsedAt = 0;
  /** Its turn for previews of changes: while one has the session, every other call waits at `readyClient`. */
  readonly preview: PreviewReservation;

  constructor(private readonly options: SessionOptions) {
    this.idle = new IdleTimer(options.idleStopMs ?? 0, () => void this.stopIdle());
    this.timings = resolveSessionTimings(options.timings);
    this.preview = new PreviewReservation(this.key);
  }

  /** "workspace/server", and the toolchain's folder for a toolchain of the server's own: "app/typescript (web/node_modules/typescript)". */
  get key(): string {
    const toolchain = this.options.server.toolchain;
    const pair = `${this.options.workspace.name}/${this.options.server.name}`;
    return toolchain === undefined ? pair : `${pair} (${toolchainFolder(this.options.workspace.root, toolchain.key)})`;
  }

  get workspace(): ResolvedWorkspace {
    return this.options.workspace;
  }

  /** The server entry, as its toolchain's files see it. */
  get server(): ResolvedServer {
    return this.options.server;
  }

  /** The state as `session_status` shows it; a session being stopped for a restart is `starting`. */
  get currentState(): SessionState {
    return stateOf(this.phase, this.closed);
  }

  /** Whether this session holds (or is acquiring, or still releasing) processes: it counts against max_sessions. */
  get isLive(): boolean {
    return holdsProcesses(this.phase);
  }

  /**
   * The ready client, starting the session if it is idle; waits out a stop in progress first. A
   * dead session answers `SessionDead`, and so does one that was closed for good. `scope` (the
   * call's) keeps the session from counting as idle until it releases it.
   */
  async readyClient(deadline: Deadline, scope?: CallScope): Promise<LspClient> {
    // No await unless a preview holds the session: the registry counts a start as live in the turn it allowed it.
    for (let held = this.preview.heldByAnother(); held; held = this.preview.heldByAnother())
      await deadline.race(held, `${this.key} to end a preview of changes`);
    this.lastUsedAt = Date.now();
    if (scope) {
      scope.defer(this.hold());
      scope.defer(this.preview.use());
    } else this.idle.touch();
    deadline.watch(this);
    for (;;) {
      if (this.transition) {
        await deadline.race(
          this.transition.catch(() => {}),
          `${this.key} to finish stopping`,
        );
        continue;
      }
      if (this.closed) throw new BridgeError("SessionDead", `session ${this.key} was closed: the bridge is shutting down`, { session: this.key });
      if (this.phase === "ready" && this.client) return this.client;
      if (this.phase === "dead") throw this.deadError();
      if (!this.starting) {
        this.phase = "starting";
        this.startedAt = Date.now();
        // The start has a deadline of its own: a caller that stops waiting does not end it.
        this.starting = this.start(Deadline.in(this.options.startTimeoutMs));
        this.starting.catch(() => {});
      }
      const client = await deadline.race(this.starting, `starting ${this.key}`);
      // A stop that began while we waited: this client is on its way out, look again.
      if (!this.transition && this.phase === "ready" && this.client === client) return client;
    }
  }

  /**
   * Marks the session as in use until the returned release (idempotent) runs: it is then neither
   * stopped as idle nor made to give way, whether or not it has started yet.
   */
  hold(): () => void {
    this.holders += 1;
    const releaseIdle = this.idle.hold();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      this.lastUsedAt = Date.now();
      releaseIdle();
    };
  }

  /**
   * When this ready session could give way to another (no call holds it, and it is not stopping):
   * the time it was last used, so that the least recently used goes first; otherwise null.
   */
  givesWaySince(): number | null {
    return this.phase === "ready" && this.holders === 0 && !this.transition && !this.closed ? this.lastUsedAt : null;
  }

  /** The stop in progress, if any: a start must wait for it before it takes a slot. */
  stopping(): Promise<void> | null {
    return this.transition?.catch(() => {}) ?? null;
  }

  /**
   * Stops the session in order so that another may start (`max_sessions`), as an idle stop does:
   * it returns to idle with last exit reason `idle`, and the next call starts it again.
   */
  giveWay(): Promise<void> {
    this.options.logger.info("session gives way to another (max_sessions)", { session: this.key });
    return this.stopAsIdle();
  }

  /** Ends the session's process tree (orderly LSP shutdown first); the session returns to idle. */
  stop(): Promise<void> {
    return this.transit(() => {});
  }

  /** Stops the session for good: callers waiting on it, and later ones, get `SessionDead`. */
  close(): Promise<void> {
    this.closed = true;
    return this.stop();
  }

  /** Stops whatever runs and starts afresh; the old tree is gone before the new one starts. `reason` is logged. */
  async restart(deadline: Deadline, reason = "session_restart"): Promise<LspClient> {
    this.options.logger.info("session restart", { session: this.key, reason });
    await this.transit(() => {
      this.restartCount += 1;
      this.lastError = null;
      this.lastExit = null;
      this.stderr = new StderrTail();
    });
    return this.readyClient(deadline);
  }

  // One stop at a time: a second stop waits for the first and then stops what came after it.
  // `afterTeardown` gets the server's exit, when it was seen.
  private async transit(afterTeardown: (exit: ExitInfo | null) => void): Promise<void> {
    while (this.transition) await this.transition.catch(() => {});
    const run = async (): Promise<void> => {
      const starting = this.starting;
      if (starting) await starting.catch(() => {});
      this.phase = "stopping";
      const exit = await this.teardown();
      this.starting = null;
      this.phase = "idle";
      afterTeardown(exit);
    };
    const transition = run();
    this.transition = transition;
    try {
      await transition;
    } finally {
      if (this.transition === transition) this.transition = null;
    }
  }

  /**
   * `idle_stop_s` passed with no call: the session is stopped in order (as a restart stops it) and
   * returns to idle, with last exit reason `idle`; the next call starts it as a first call does.
   */
  private async stopIdle(): Promise<void> {
    if (this.closed || this.transition) return;
    // A start that outlasts the idle time is not idleness: look again once it is done.
    if (this.phase === "starting") return this.idle.touch();
    if (this.phase !== "ready") return;
    this.options.logger.info("session idle: stopping it", { session: this.key, idle_stop_ms: this.options.idleStopMs });
    await this.stopAsIdle();
  }

  private stopAsIdle(): Promise<void> {
    return this.transit((exit) => {
      this.lastExit = { code: exit?.code ?? null, signal: exit?.signal ?? null, reason: "idle", rss_mb: null };
    });
  }

  /**
   * While the session starts, or, within `startTimeoutMs` of its start, has not answered a request
   * yet or runs work-done progress: when that ends (at the latest when that time has passed).
   */
  loading(): Promise<void> | null {
    if (this.phase === "starting" && this.starting)
      return this.starting.then(
        () => {},
        () => {},
      );
    if (this.phase !== "ready" || !this.client || this.startedAt === null) return null;
    return serverLoading(this.client, this.startedAt + this.options.startTimeoutMs - Date.now());
  }

  /** What the server is still busy with, for a Timeout's message: its start, or its running work-done progress. */
  busy(): string | null {
    if (this.phase === "starting") return `${this.key} is still starting`;
    if (this.phase !== "ready" || !this.client) return null;
    return serverBusy(this.key, this.client);
  }

  /** The toolchain that answers this session (the one the workspace may bring), once a start chose it; else null. */
  get answeringToolchain(): ToolchainReport | null {
    return this.toolchainReport;
  }

  /** The session as it is now. */
  status(): SessionStatus {
    return sessionStatus(
      {
        workspace: this.options.workspace.name,
        server: this.options.server,
        phase: this.phase,
        closed: this.closed,
        process: this.process,
        client: this.client,
        reportedVersion: this.reportedVersion,
        answering: this.toolchainReport,
        toolchain: this.options.server.toolchain ?? null,
        root: this.options.workspace.root,
        projects: this.projects,
        readyAt: this.readyAt,
        restarts: this.restartCount,
        maxOpenDocuments: this.options.maxOpenDocuments,
        lastExit: this.lastExit,
        lastError: this.lastError,
        stderrTail: this.stderr.snapshot(),
      },
      Date.now(),
    );
  }

  private async start(deadline: Deadline): Promise<LspClient> {
    const { workspace, logger } = this.options;
    const server = this.recognisedAs ?? this.options.server;
    try {
      const inputs = {
        workspace,
        server,
        key: this.key,
        logger,
        maxOpenDocuments: this.options.maxOpenDocuments,
        stderr: this.stderr,
        supervision: this.options.supervision,
      };
      const record: StartRecord = {
        toolchainChosen: (toolchain) => (this.toolchainReport = toolchain),
        projectsFound: (projects) => (this.projects = projects),
        spawned: (spawned) => {
          this.process = spawned;
          void spawned.exited.then((exit) => this.onExit(spawned, exit));
          void spawned.overMemory.then((over) => this.onOverMemory(spawned, over));
        },
        connected: (client, spawned) => {
          this.client = client;
          client.onClose(() => this.onConnectionLost(spawned, client));
        },
        reported: (version) => (this.reportedVersion = version),
      };
      let outcome = await startServer(inputs, record, deadline);
      if (outcome.again !== null) {
        // The server named itself as a known one: this start is let go (its exit is no death of the
        // session) and the server started again with its own adapter.
        await this.letGo(outcome.client, outcome.spawned);
        // Later starts of this session start it so at once.
        this.recognisedAs = outcome.again;
        outcome = await startServer({ ...inputs, server: outcome.again }, record, deadline);
      }
      const { client, reported } = outcome;
      if (this.phase !== "starting") throw this.deadError();
      this.phase = "ready";
      this.readyAt = Date.now();
      this.idle.touch();
      logger.info("session ready", { session: this.key, pid: this.process?.serverPid, version: reported });
      return client;
    } catch (error) {
      // Judged before the tree is reaped: an exit the reaping causes is not why the start failed.
      const judged = startFailure(error, {
        key: this.key,
        lastExit: this.lastExit,
        lastError: this.lastError,
        stderrTail: this.stderr.snapshot(),
        maxRssMb: server.max_rss_mb,
      });
      this.lastError = judged;
      // Dead before the tree is reaped, so that calls arriving meanwhile answer SessionDead.
      if (this.phase === "starting") this.phase = "dead";
      await this.teardown();
      // The tree is gone, so its stderr ends: the reason is told with the server's last words,
      // which can arrive after its exit was seen.
      await this.stderr.drained(this.timings.stderrDrainMs);
      const failure = withFinalStderr(judged, this.stderr.snapshot());
      this.lastError = failure;
      logger.warn("session failed to start", { session: this.key, code: failure.code, message: failure.message });
      throw failure;
    }
  }

  /** Ends a start's client and tree that the session no longer follows. */
  private async letGo(client: LspClient, spawned: SupervisedServer): Promise<void> {
    this.client = null;
    this.process = null;
    await client.shutdown(Deadline.in(this.timings.shutdownGraceMs));
    await spawned.stop();
  }

  private onExit(spawned: SupervisedServer, exit: ExitInfo): void {
    if (this.process !== spawned || this.phase === "stopping") return;
    this.lastExit = sessionExit(exit);
    if (this.phase === "ready" || this.phase === "starting") {
      this.phase = "dead";
      this.options.logger.warn("server exited", { session: this.key, code: exit.code, signal: exit.signal });
      this.client?.dispose();
      // The server is gone, but daemons it left behind are still ours to reap.
      void spawned.stop();
    }
  }

  // The supervisor is ending the tree because it passed max_rss_mb. The session is dead from now
  // on, calls in flight included (SessionDead with the memory seen, not a crash); the exit
  // status follows in onExit. Only session_restart brings it back.
  private onOverMemory(spawned: SupervisedServer, over: MemoryOverCap): void {
    if (this.process !== spawned || this.phase === "stopping" || this.phase === "dead") return;
    this.phase = "dead";
    this.lastExit = sessionExit({ code: null, signal: null, overMemory: over });
    this.idle.cancel();
    this.options.logger.warn("session ended: its process tree passed max_rss_mb", {
      session: this.key,
      rss_mb: this.lastExit.rss_mb,
      max_rss_mb: this.options.server.max_rss_mb,
    });
    this.client?.dispose(this.deadError());
    void spawned.stop();
  }

  // A connection the bridge ended because the server broke the protocol: the process may still
  // run, but the session cannot be trusted, so it is dead (never silently kept or respawned).
  private onConnectionLost(spawned: SupervisedServer, client: LspClient): void {
    const reason = client.protocolViolation;
    if (reason === null || this.client !== client || this.phase !== "ready") return;
    this.phase = "dead";
    this.lastError = new BridgeError("ServerCrashed", `${this.key}: ${reason}`, { session: this.key, reason });
    this.options.logger.warn("server broke the protocol", { session: this.key, reason });
    void spawned.stop();
  }

  /** Ends the client and the tree; resolves with the server's exit, when it was seen. */
  private async teardown(): Promise<ExitInfo | null> {
    const client = this.client;
    const spawned = this.process;
    this.client = null;
    this.idle.cancel();
    if (client) await client.shutdown(Deadline.in(this.timings.shutdownGraceMs));
    let exit: ExitInfo | null = null;
    if (spawned) {
      // An orderly exit first; the supervisor then reaps whatever the server left running.
      await Deadline.in(this.timings.shutdownGraceMs)
        .race(spawned.exited, "server exit")
        .catch(() => {});
      await spawned.stop();
      exit = await Promise.race([spawned.exited, delay(this.timings.exitReportMs, null, { ref: false })]);
    }
    this.readyAt = null;
    this.startedAt = null;
    return exit;
  }

  private deadError(): BridgeError {
    return sessionDeadError(this.key, this.lastExit, this.lastError, this.stderr.snapshot(), this.options.server.max_rss_mb);
  }
}

/** What a ready server shows of its load: whether it has answered yet, and its work-done progress. */
interface LoadingServer {
  readonly hasAnswered: boolean;
  whenAnswered(): Promise<void>;
  readonly progress: { isIdle(): boolean; whenIdle(): Promise<void>; runningTitles(): string[] };
}

/**
 * While a ready server still loads, with `windowMs` left of its start's window: when that ends (at
 * the latest when the window closes); null when it is not loading or the window has closed.
 */
function serverLoading(server: LoadingServer, windowMs: number): Promise<void> | null {
  if (windowMs <= 0) return null;
  const windowEnds = delay(windowMs, undefined, { ref: false });
  // Booting: ready, but no request answered yet (tsserver loads itself before it answers).
  if (!server.hasAnswered) return Promise.race([server.whenAnswered(), windowEnds]);
  if (server.progress.isIdle()) return null;
  return Promise.race([server.progress.whenIdle(), windowEnds]);
}

/** What a ready server is still busy with, for a Timeout's message: its running work-done progress; else null. */
function serverBusy(key: string, server: LoadingServer): string | null {
  if (server.progress.isIdle()) return null;
  const titles = server.progress.runningTitles();
  return `${key} is still loading${titles.length > 0 ? ` (${titles.join(", ")})` : ""}`;
}
