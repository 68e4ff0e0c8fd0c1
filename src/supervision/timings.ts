import type { SupervisionTimings } from "./types.js";

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
