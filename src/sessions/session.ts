import { BridgeError, errorText } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { CallScope } from "../contract/call-scope.js";
import { Deadline, type LoadWatch } from "../contract/deadline.js";
import { LspClient } from "../lsp/lsp-client.js";
import { ADAPTERS } from "../lsp/adapters/index.js";
import { setTimeout as delay } from "node:timers/promises";
import { AsyncLocalStorage } from "node:async_hooks";
import { scrubbedEnv, spawnSupervised, type ExitInfo, type MemoryOverCap, type SupervisedServer, type SupervisionTimings } from "../supervision/index.js";
import { IdleTimer } from "./idle-timer.js";
import { sessionDeadError, sessionExit, toMiB, type SessionExit } from "./session-exit.js";
import { StderrTail } from "./stderr-tail.js";
import { assertPinned, runVersionCommand } from "./version-pin.js";
import { launchFor } from "../lsp/adapters/launch.js";
import type { CompilerReport } from "../lsp/adapters/server-adapter.js";
import { expandWorkspaceCache } from "../config/workspace-cache.js";
import { findProjectRoots } from "../config/project-roots.js";
import { join } from "node:path";

export type SessionState = "idle" | "starting" | "ready" | "dead";

/**
 * What a session is doing. `stopping` is internal: its tree is being torn down (a restart, or
 * the bridge's end), and no caller is handed its client meanwhile.
 */
type SessionPhase = SessionState | "stopping";

/** How long an orderly LSP shutdown may take before the supervisor reaps the tree anyway. */
const SHUTDOWN_GRACE_MS = 2000;
/** After a stop, how long the server's exit status may take to arrive (it is on its way by then). */
const EXIT_REPORT_MS = 500;
/** How long a failed start waits for the rest of the server's stderr once its tree is gone. */
const STDERR_DRAIN_MS = 1000;

export interface SessionOptions {
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
  readonly timings?: Partial<SupervisionTimings>;
}

/**
 * One session as `session_status`, `session_restart` and `lspmcp status` show it, in the key
 * order of the tools' `SessionStatusSchema`, which types the tools' answers built from it.
 */
export interface SessionStatus {
  readonly workspace: string;
  readonly server: string;
  readonly state: SessionState;
  readonly pid: number | null;
  readonly supervisor_pid: number | null;
  readonly tree_processes: number;
  readonly pinned_version: string;
  readonly reported_version: string | null;
  /** Whose compiler answers (TypeScript; its version is `reported_version`); null for other servers or before a start. */
  readonly compiler_source: CompilerReport["source"] | null;
  /**
   * The project roots the server was told of at its last start, relative to the workspace root
   * ("" is the root); null for a server that takes none, or before a start.
   */
  readonly projects: string[] | null;
  readonly uptime_ms: number | null;
  readonly restarts: number;
  readonly open_documents: number;
  readonly max_open_documents: number;
  readonly requests_in_flight: number;
  /** The whole tree's resident memory (MiB) as last sampled; null when no server runs. */
  readonly rss_mb: number | null;
  readonly max_rss_mb: number | null;
  readonly last_exit: SessionExit | null;
  readonly last_error: { code: string; message: string } | null;
  readonly stderr_tail: string[];
}

/** The sessions a preview of changes has reserved (see `Session.reserve`), within its run. */
export const previewing = new AsyncLocalStorage<ReadonlySet<Session>>();

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
  private compiler: CompilerReport | null = null;
  // The project roots found at the last start (relative folders); null: the server takes none.
  private projects: string[] | null = null;
  private readyAt: number | null = null;
  // When the running start began: its load counts until startTimeoutMs after it.
  private startedAt: number | null = null;
  private restartCount = 0;
  private lastExit: SessionExit | null = null;
  private lastError: BridgeError | null = null;
  private stderr = new StderrTail();
  private readonly idle: IdleTimer;
  // Calls using the session now: while there is one, it never gives way to another session.
  private holders = 0;
  // When a call last asked for the session or let go of it: the least recent gives way first.
  private lastUsedAt = 0;
  // Calls that have the client now (from `readyClient` to the end of their scope): what a
  // preview waits out before it changes what the server sees.
  private users = 0;
  private drained: (() => void)[] = [];
  // A preview that has the session to itself: every other call waits at `readyClient` until it ends.
  private reservation: Promise<void> | null = null;

  constructor(private readonly options: SessionOptions) {
    this.idle = new IdleTimer(options.idleStopMs ?? 0, () => void this.stopIdle());
  }

  get key(): string {
    return `${this.options.workspace.name}/${this.options.server.name}`;
  }

  /** The state as `session_status` shows it; a session being stopped for a restart is `starting`. */
  get currentState(): SessionState {
    return this.phase === "stopping" ? (this.closed ? "idle" : "starting") : this.phase;
  }

  /** Whether this session holds (or is acquiring, or still releasing) processes: it counts against max_sessions. */
  get isLive(): boolean {
    return this.phase === "starting" || this.phase === "ready" || this.phase === "stopping";
  }

  /**
   * The ready client, starting the session if it is idle; waits out a stop in progress first. A
   * dead session answers `SessionDead`, and so does one that was closed for good. `scope` (the
   * call's) keeps the session from counting as idle until it releases it.
   */
  async readyClient(deadline: Deadline, scope?: CallScope): Promise<LspClient> {
    while (this.reservation && !previewing.getStore()?.has(this)) await deadline.race(this.reservation, `${this.key} to end a preview of changes`);
    this.lastUsedAt = Date.now();
    if (scope) {
      scope.defer(this.hold());
      scope.defer(this.use());
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

  /** Counts a call that has the client until the returned release runs. */
  private use(): () => void {
    this.users += 1;
    return () => {
      this.users -= 1;
      if (this.users === 0) for (const resolve of this.drained.splice(0)) resolve();
    };
  }

  /**
   * Takes the session for one preview of changes (CONTRACT §4.4): waits for another preview's
   * reservation to end, reserves it (every later call of anyone else waits at `readyClient`), and
   * waits until no call still has the client. Within `previewing.run` the preview's own calls
   * pass. Returns the release; the deadline bounds the waits (`Timeout`, nothing reserved).
   */
  async reserve(deadline: Deadline): Promise<() => void> {
    while (this.reservation) await deadline.race(this.reservation, `${this.key} to end another preview of changes`);
    let end!: () => void;
    this.reservation = new Promise((resolve) => (end = resolve));
    const release = () => {
      this.reservation = null;
      end();
    };
    try {
      if (this.users > 0) await deadline.race(new Promise<void>((resolve) => this.drained.push(resolve)), `the calls on ${this.key} to end before a preview`);
    } catch (error) {
      release();
      throw error;
    }
    return release;
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
    const loadEndsIn = this.startedAt === null ? 0 : this.startedAt + this.options.startTimeoutMs - Date.now();
    const client = this.client;
    if (this.phase !== "ready" || !client || loadEndsIn <= 0) return null;
    const windowEnds = delay(loadEndsIn, undefined, { ref: false });
    // Booting: ready, but no request answered yet (tsserver loads itself before it answers).
    if (!client.hasAnswered) return Promise.race([client.whenAnswered(), windowEnds]);
    if (client.progress.isIdle()) return null;
    return Promise.race([client.progress.whenIdle(), windowEnds]);
  }

  /** What the server is still busy with, for a Timeout's message: its start, or its running work-done progress. */
  busy(): string | null {
    if (this.phase === "starting") return `${this.key} is still starting`;
    const client = this.client;
    if (this.phase !== "ready" || !client || client.progress.isIdle()) return null;
    const titles = client.progress.runningTitles();
    return `${this.key} is still loading${titles.length > 0 ? ` (${titles.join(", ")})` : ""}`;
  }

  /** The compiler that answers this session (TypeScript), once a start chose it; else null. */
  get compilerReport(): CompilerReport | null {
    return this.compiler;
  }

  /** The session as it is now. */
  status(): SessionStatus {
    // An idle session has no process; a dead one keeps its last pids, to say what died.
    const process = this.phase === "idle" ? null : this.process;
    const memory = this.isLive ? (this.process?.memory() ?? null) : null;
    const exit = this.lastExit;
    return {
      workspace: this.options.workspace.name,
      server: this.options.server.name,
      state: this.currentState,
      pid: process?.serverPid ?? null,
      supervisor_pid: process?.supervisorPid ?? null,
      tree_processes: this.process && this.isLive ? this.process.liveProcessCount() : 0,
      pinned_version: this.options.server.version,
      reported_version: this.reportedVersion,
      compiler_source: this.compiler?.source ?? null,
      projects: this.projects === null ? null : [...this.projects],
      uptime_ms: this.phase === "ready" && this.readyAt !== null ? Date.now() - this.readyAt : null,
      restarts: this.restartCount,
      open_documents: this.phase === "ready" ? (this.client?.documents.openCount ?? 0) : 0,
      max_open_documents: this.options.maxOpenDocuments,
      requests_in_flight: this.phase === "ready" ? (this.client?.requestsInFlight ?? 0) : 0,
      rss_mb: memory ? toMiB(memory.rssKiB) : null,
      max_rss_mb: this.options.server.max_rss_mb,
      last_exit: exit ? { code: exit.code, signal: exit.signal, reason: exit.reason, rss_mb: exit.rss_mb } : null,
      last_error: this.lastError ? { code: this.lastError.code, message: this.lastError.message } : null,
      stderr_tail: this.stderr.snapshot(),
    };
  }

  private async start(deadline: Deadline): Promise<LspClient> {
    const { server, workspace, logger } = this.options;
    try {
      const env = scrubbedEnv(await expandWorkspaceCache(server.env, workspace), server.inherit_env);
      // Which server this workspace needs (its own compiler, for TypeScript) is chosen afresh at
      // every start, so a reinstall in the workspace is seen by the next start.
      const launch = launchFor(server, workspace.root);
      this.compiler = launch.compiler;
      // Found afresh at every start, as the compiler is: a package added since is then seen.
      this.projects = server.projects === null ? null : await findProjectRoots(workspace.root, server.projects);
      const projects = (this.projects ?? []).map((folder) => join(workspace.root, folder));
      // The version command runs beside the server start: both must finish within the deadline.
      const versionFromCommand = launch.versionCommand
        ? runVersionCommand(server.name, launch.versionCommand, env, Math.max(1, deadline.remainingMs()))
        : Promise.resolve(null);
      versionFromCommand.catch(() => {});
      const spawned = await spawnSupervised(
        {
          command: launch.command,
          args: launch.args,
          env,
          cwd: workspace.root,
          label: this.key,
          maxRssMb: server.max_rss_mb,
          // Followed from the start: a server that exits before its start is confirmed said why.
          onStderr: (stream) => this.stderr.follow(stream),
        },
        this.options.timings,
      );
      this.process = spawned;
      void spawned.exited.then((exit) => this.onExit(spawned, exit));
      void spawned.overMemory.then((over) => this.onOverMemory(spawned, over));
      const client = LspClient.connect({
        input: spawned.stdout,
        output: spawned.stdin,
        rootPath: workspace.root,
        workspaceName: workspace.name,
        initializationOptions: launch.initializationOptions,
        projects,
        settings: launch.settings,
        positionEncoding: server.position_encoding,
        adapter: ADAPTERS[launch.adapter],
        maxOpenDocuments: this.options.maxOpenDocuments,
        log: (line) => logger.debug("server log", { session: this.key, line }),
      });
      // Held before `initialize`, so that a server exit during the handshake ends it at once.
      this.client = client;
      client.onClose(() => this.onConnectionLost(spawned, client));
      await client.initialize(deadline);
      const reported = (await versionFromCommand) ?? client.serverInfo?.version ?? null;
      this.reportedVersion = reported;
      assertPinned(server.name, launch.version, reported);
      // A server that runs a compiler it was given (typescript-language-server's tsserver): the one that answers is asked.
      if (client.adapter.confirmCompiler && launch.compiler !== null) {
        this.reportedVersion = await client.adapter.confirmCompiler(launch.compiler, deadline);
      }
      if (this.phase !== "starting") throw this.deadError();
      this.phase = "ready";
      this.readyAt = Date.now();
      this.idle.touch();
      logger.info("session ready", { session: this.key, pid: spawned.serverPid, version: reported });
      return client;
    } catch (error) {
      // Judged before the tree is reaped: an exit the reaping causes is not why the start failed.
      const judged = this.startFailure(error);
      this.lastError = judged;
      // Dead before the tree is reaped, so that calls arriving meanwhile answer SessionDead.
      if (this.phase === "starting") this.phase = "dead";
      await this.teardown();
      // The tree is gone, so its stderr ends: the reason is told with the server's last words,
      // which can arrive after its exit was seen.
      await this.stderr.drained(STDERR_DRAIN_MS);
      const failure =
        "stderr_tail" in judged.details
          ? new BridgeError(judged.code, judged.message, { ...judged.details, stderr_tail: this.stderr.snapshot() }, { cause: judged.cause })
          : judged;
      this.lastError = failure;
      logger.warn("session failed to start", { session: this.key, code: failure.code, message: failure.message });
      throw failure;
    }
  }

  private startFailure(error: unknown): BridgeError {
    if (this.lastExit?.reason === "memory") return this.deadError();
    if (this.lastExit) {
      const { code, signal } = this.lastExit;
      return new BridgeError("ServerStartFailed", `${this.key} exited during start (code ${code}, signal ${signal})`, {
        session: this.key,
        exit_code: code,
        exit_signal: signal,
        stderr_tail: this.stderr.snapshot(),
      });
    }
    if (error instanceof BridgeError) {
      if (error.code === "ServerStartFailed")
        return new BridgeError(error.code, error.message, { ...error.details, session: this.key, stderr_tail: this.stderr.snapshot() }, { cause: error.cause });
      if (error.code === "ServerCrashed" || error.code === "Timeout") {
        return new BridgeError(error.code === "Timeout" ? "Timeout" : "ServerStartFailed", `${this.key}: ${error.message}`, {
          ...error.details,
          session: this.key,
          stderr_tail: this.stderr.snapshot(),
        });
      }
      return error;
    }
    // The connection can fail (a closed pipe) before the server's exit is seen: its last words
    // on stderr still say why it did not start.
    const message = errorText(error);
    return new BridgeError(
      "ServerStartFailed",
      `${this.key} failed to start: ${message}`,
      { session: this.key, stderr_tail: this.stderr.snapshot() },
      { cause: error },
    );
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
    if (client) await client.shutdown(Deadline.in(SHUTDOWN_GRACE_MS));
    let exit: ExitInfo | null = null;
    if (spawned) {
      // An orderly exit first; the supervisor then reaps whatever the server left running.
      await Deadline.in(SHUTDOWN_GRACE_MS)
        .race(spawned.exited, "server exit")
        .catch(() => {});
      await spawned.stop();
      exit = await Promise.race([spawned.exited, delay(EXIT_REPORT_MS, null, { ref: false })]);
    }
    this.readyAt = null;
    this.startedAt = null;
    return exit;
  }

  private deadError(): BridgeError {
    return sessionDeadError(this.key, this.lastExit, this.lastError, this.stderr.snapshot(), this.options.server.max_rss_mb);
  }
}
