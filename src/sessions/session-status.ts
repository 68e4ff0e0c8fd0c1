import { relative } from "node:path";
import type { ToolchainChoice } from "../config/types.js";
import type { BridgeError } from "../contract/errors.js";
import { TOOLCHAIN_PATH_FIELD, TOOLCHAIN_SOURCE_FIELD } from "../contract/toolchain-fields.js";
import type { ToolchainReport } from "../lsp/project-model.js";
import type { SupervisedServer } from "../supervision/index.js";
import { toMiB, type SessionExit } from "./session-exit.js";

export type SessionState = "idle" | "starting" | "ready" | "dead";

/**
 * What a session is doing. `stopping` is internal: its tree is being torn down (a restart, or
 * the bridge's end), and no caller is handed its client meanwhile.
 */
export type SessionPhase = SessionState | "stopping";

/** The state as `session_status` shows it; a session being stopped for a restart is `starting`. */
export function stateOf(phase: SessionPhase, closed: boolean): SessionState {
  return phase === "stopping" ? (closed ? "idle" : "starting") : phase;
}

/** Whether a session in `phase` holds (or is acquiring, or still releasing) processes. */
export function holdsProcesses(phase: SessionPhase): boolean {
  return phase === "starting" || phase === "ready" || phase === "stopping";
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
  /**
   * Whose toolchain answers (one the workspace may bring; its version is `reported_version`); null
   * for other servers or before a start.
   */
  readonly [TOOLCHAIN_SOURCE_FIELD]: ToolchainReport["source"] | null;
  /**
   * The toolchain's package folder (relative to the workspace root when inside it), or "pinned":
   * for a toolchain of its own, from its first file; for the pair's, once a start chose it; else null.
   */
  readonly [TOOLCHAIN_PATH_FIELD]: string | null;
  /** Why the project's own toolchain may not run, for a toolchain whose files are not checked; else null. */
  readonly refused: string | null;
  /**
   * The project roots the session answers, as found at its last start, relative to the
   * workspace root ("" is the root): for a server with several toolchains, those of its own; null
   * for a server that takes none, or before a start.
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

/** Everything a session's status is made of, as the session holds it now. */
export interface SessionFacts {
  readonly workspace: string;
  readonly server: { readonly name: string; readonly version: string; readonly max_rss_mb: number | null };
  readonly phase: SessionPhase;
  readonly closed: boolean;
  /** The tree of the last start, kept after the session died. */
  readonly process: Pick<SupervisedServer, "serverPid" | "supervisorPid" | "liveProcessCount" | "memory"> | null;
  readonly client: { readonly requestsInFlight: number; readonly documents: { readonly openCount: number } } | null;
  readonly reportedVersion: string | null;
  /** The toolchain that answers, once a start chose it; else null. */
  readonly answering: ToolchainReport | null;
  /** The session's own toolchain, or null for a pair's session. */
  readonly toolchain: ToolchainChoice | null;
  /** The workspace root: paths inside it are shown relative to it. */
  readonly root: string;
  readonly projects: readonly string[] | null;
  /** Date.now() when the session became ready; null when it is not. */
  readonly readyAt: number | null;
  readonly restarts: number;
  readonly maxOpenDocuments: number;
  readonly lastExit: SessionExit | null;
  readonly lastError: BridgeError | null;
  readonly stderrTail: string[];
}

/** The status record of a session with `facts`, at `now` (Date.now()). */
export function sessionStatus(facts: SessionFacts, now: number): SessionStatus {
  const { phase, client, lastExit: exit, lastError } = facts;
  const live = holdsProcesses(phase);
  // An idle session has no process; a dead one keeps its last pids, to say what died.
  const process = phase === "idle" ? null : facts.process;
  const memory = live ? (facts.process?.memory() ?? null) : null;
  return {
    workspace: facts.workspace,
    server: facts.server.name,
    state: stateOf(phase, facts.closed),
    pid: process?.serverPid ?? null,
    supervisor_pid: process?.supervisorPid ?? null,
    tree_processes: facts.process && live ? facts.process.liveProcessCount() : 0,
    pinned_version: facts.server.version,
    reported_version: facts.reportedVersion,
    [TOOLCHAIN_SOURCE_FIELD]: facts.answering?.source ?? null,
    [TOOLCHAIN_PATH_FIELD]: facts.answering
      ? facts.answering.source === "pinned"
        ? "pinned"
        : toolchainFolder(facts.root, facts.answering.path)
      : facts.toolchain === null
        ? null
        : toolchainFolder(facts.root, facts.toolchain.key),
    refused: facts.toolchain?.refused ?? null,
    projects: facts.projects === null ? null : [...facts.projects],
    uptime_ms: phase === "ready" && facts.readyAt !== null ? now - facts.readyAt : null,
    restarts: facts.restarts,
    open_documents: phase === "ready" ? (client?.documents.openCount ?? 0) : 0,
    max_open_documents: facts.maxOpenDocuments,
    requests_in_flight: phase === "ready" ? (client?.requestsInFlight ?? 0) : 0,
    rss_mb: memory ? toMiB(memory.rssKiB) : null,
    max_rss_mb: facts.server.max_rss_mb,
    last_exit: exit ? { code: exit.code, signal: exit.signal, reason: exit.reason, rss_mb: exit.rss_mb } : null,
    last_error: lastError ? { code: lastError.code, message: lastError.message } : null,
    stderr_tail: facts.stderrTail,
  };
}

/** A toolchain's key or package folder as shown: relative to the workspace root ("../" where it lies above), "pinned" as it is. */
export function toolchainFolder(root: string, key: string): string {
  return key === "pinned" ? key : relative(root, key) || ".";
}
