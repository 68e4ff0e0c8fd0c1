import type { Readable, Writable } from "node:stream";
import { withOverrides } from "../contract/timings.js";

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
  /** Cap on the whole tree's resident memory, in MiB; absent or null: no cap. */
  readonly maxRssMb?: number | null;
  /**
   * Given the server's stderr as soon as it exists, before the start is confirmed: what a server
   * says before it fails to start (a wrapper that refuses and exits at once) is its reason.
   */
  readonly onStderr?: (stderr: Readable) => void;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
  /** Present when the supervisor ended the tree because it passed its memory cap. */
  readonly overMemory?: MemoryOverCap;
}

/** What the supervisor saw when it ended a tree for its memory. */
export interface MemoryOverCap {
  /** The tree's resident memory in the sample that passed the cap. */
  readonly rssKiB: number;
  readonly capKiB: number;
}

/** The latest measurement of a running tree's resident memory. */
export interface MemorySample {
  /** Sum of VmRSS over the tree's live processes (server, descendants, daemons), in KiB. */
  readonly rssKiB: number;
  readonly processes: number;
  /** Date.now() when it arrived. */
  readonly at: number;
}

/** Grace periods and deadlines, injectable so that tests can shrink them. */
export interface SupervisionTimings {
  /** Between SIGTERM to the tree and SIGKILL to what is left. */
  readonly termGraceMs: number;
  /** How long to wait, after SIGKILL, for /proc to confirm that the tree is gone. */
  readonly confirmDeadlineMs: number;
  /** How often the supervisor measures the tree's resident memory (and checks its cap). */
  readonly memorySampleMs: number;
}

/**
 * Defaults that keep a whole reap well inside CONTRACT §1's 5 seconds: 1 s of SIGTERM grace,
 * then at most 2.5 s for SIGKILL to be confirmed, leaving room for the bridge's own backstop.
 * One memory sample a second costs the supervisor 5–10 ms of CPU (100–500 processes on the
 * machine; docs/contributors/supervision.md) and lets a runaway server grow for at most a second past its cap.
 */
export const DEFAULT_TIMINGS: SupervisionTimings = {
  termGraceMs: 1000,
  confirmDeadlineMs: 2500,
  memorySampleMs: 1000,
};

/** Defaults with the caller's overrides; negative or non-numeric values fall back to the default. */
export function resolveTimings(overrides: Partial<SupervisionTimings> = {}): SupervisionTimings {
  const timings = withOverrides(DEFAULT_TIMINGS, overrides);
  // An interval of 0 would be a busy loop.
  return timings.memorySampleMs === 0 ? { ...timings, memorySampleMs: DEFAULT_TIMINGS.memorySampleMs } : timings;
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
  /**
   * Resolves when the supervisor reports that the tree passed its memory cap, just before it
   * ends the tree (so before `exited`); stays pending otherwise.
   */
  readonly overMemory: Promise<MemoryOverCap>;
  /** Live processes of the tree right now (server, its descendants, daemons that left it). */
  liveProcessCount(): number;
  /**
   * The supervisor's latest measurement of the tree's resident memory (no /proc read here), or
   * null before the first one arrived and once the server has exited.
   */
  memory(): MemorySample | null;
  /**
   * CPU time used so far by the server and its descendants (the supervisor left out), in clock
   * ticks, read from /proc now; null once the server has exited.
   */
  cpuTicks(): number | null;
  /**
   * Ends the whole tree: SIGTERM, grace, SIGKILL, then waits until /proc shows none of it.
   * Idempotent; concurrent calls share one stop. Never rejects.
   */
  stop(): Promise<void>;
}
