import type { Readable, Writable } from "node:stream";

/**
 * What to start. Callers pass the scrubbed environment (`scrubbedEnv`); supervision adds only
 * LSPMCP_SESSION_TOKEN and LSPMCP_OWNER, which mark the tree for reaping and the orphan sweep.
 */
export interface SpawnSpec {
  /** Absolute path of the executable. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Short name for logs and status ("app/typescript"). */
  readonly label: string;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

/** Grace periods and deadlines, injectable so that tests can shrink them. */
export interface SupervisionTimings {
  /** Between SIGTERM to the tree and SIGKILL to what is left. */
  readonly termGraceMs: number;
  /** How long to wait, after SIGKILL, for /proc to confirm that the tree is gone. */
  readonly confirmDeadlineMs: number;
}

/**
 * Defaults that keep a whole reap well inside CONTRACT §1's 5 seconds: 1 s of SIGTERM grace,
 * then at most 2.5 s for SIGKILL to be confirmed, leaving room for the bridge's own backstop.
 */
export const DEFAULT_TIMINGS: SupervisionTimings = {
  termGraceMs: 1000,
  confirmDeadlineMs: 2500,
};

/** Defaults with the caller's overrides; negative or non-numeric values fall back to the default. */
export function resolveTimings(overrides: Partial<SupervisionTimings> = {}): SupervisionTimings {
  const pick = (value: number | undefined, fallback: number): number =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    termGraceMs: pick(overrides.termGraceMs, DEFAULT_TIMINGS.termGraceMs),
    confirmDeadlineMs: pick(overrides.confirmDeadlineMs, DEFAULT_TIMINGS.confirmDeadlineMs),
  };
}

/**
 * A language server running under process-tree supervision. Its stdio is the server's stdio.
 */
export interface SupervisedServer {
  readonly serverPid: number;
  readonly supervisorPid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves once, when the server process itself has exited (descendants may still live). */
  readonly exited: Promise<ExitInfo>;
  /** Live processes of the tree right now (server, its descendants, daemons that left it). */
  liveProcessCount(): number;
  /**
   * Ends the whole tree: SIGTERM, grace, SIGKILL, then waits until /proc shows none of it.
   * Idempotent; concurrent calls share one stop. Never rejects.
   */
  stop(): Promise<void>;
}
