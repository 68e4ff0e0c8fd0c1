import { withOverrides } from "../contract/timings.js";

/** The waits of a session's stop and failed start, injectable so that tests can shorten them. */
export interface SessionTimings {
  /** How long an orderly LSP shutdown, and then the server's own exit, may take before the supervisor reaps the tree anyway. */
  readonly shutdownGraceMs: number;
  /** After a stop, how long the server's exit status may take to arrive (it is on its way by then). */
  readonly exitReportMs: number;
  /** How long a failed start waits for the rest of the server's stderr once its tree is gone. */
  readonly stderrDrainMs: number;
}

export const DEFAULT_SESSION_TIMINGS: SessionTimings = {
  shutdownGraceMs: 2000,
  exitReportMs: 500,
  stderrDrainMs: 1000,
};

/** Defaults with the caller's overrides; negative or non-numeric values fall back to the default. */
export function resolveSessionTimings(overrides: Partial<SessionTimings> = {}): SessionTimings {
  return withOverrides(DEFAULT_SESSION_TIMINGS, overrides);
}
