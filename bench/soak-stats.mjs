// The soak's arithmetic: RSS read from /proc, and the least-squares slope of RSS over calls.
import { kib } from "./proc.mjs";

/** Resident memory of `pid` in KiB (0 once it is gone). */
export const rssKiB = (pid) => kib(`/proc/${pid}/status`, "VmRSS");

/** Peak resident memory of `pid` in KiB. */
export const peakKiB = (pid) => kib(`/proc/${pid}/status`, "VmHWM");

/**
 * Least-squares slope of `y` over `x` for the samples after warm-up (the second half), in units
 * of y per 1,000 x: KiB per 1,000 calls when x counts calls and y is RSS in KiB.
 */
export function slopePer1000(samples, x, y) {
  const tail = samples.slice(Math.floor(samples.length / 2));
  if (tail.length < 2) return null;
  const meanX = tail.reduce((sum, s) => sum + x(s), 0) / tail.length;
  const meanY = tail.reduce((sum, s) => sum + y(s), 0) / tail.length;
  const sxx = tail.reduce((sum, s) => sum + (x(s) - meanX) ** 2, 0);
  const sxy = tail.reduce((sum, s) => sum + (x(s) - meanX) * (y(s) - meanY), 0);
  return sxx === 0 ? null : Number(((sxy / sxx) * 1000).toFixed(2));
}

/** The plateau a long-running lspmcp process must hold after warm-up (issue 26), in KiB. */
export const PLATEAU_LIMITS = { window_calls: 10_000, growth_kib: 8 * 1024, last_calls: 5_000, last_growth_kib: 2 * 1024 };

/** Calls over which a level is taken: the highest sample among them. */
const LEVEL_CALLS = 1_000;

/**
 * The level of `y` (RSS in KiB) over the calls from `lo` to `hi`: its highest sample there, or
 * null when there is none. Peaks, not single samples: the collector's sawtooth moves any one
 * sample by megabytes, while a plateau's peaks stay level and a leak lifts them.
 */
export function levelKiB(samples, x, y, lo, hi) {
  const values = samples.filter((s) => x(s) >= lo && x(s) <= hi).map(y);
  return values.length === 0 ? null : Math.max(...values);
}

const minus = (a, b) => (a === null || b === null ? null : a - b);

/**
 * The plateau verdict over the last `limits.window_calls` calls of `samples` (everything before
 * them is warm-up):
 * - growth: the highest RSS anywhere in the window minus the level of its first 1,000 calls, so a
 *   climb that a late collection undoes still counts (the memory was taken);
 * - last growth: the level of the last 1,000 calls minus the level `limits.last_calls` earlier
 *   (still rising at the end?).
 * `ok` is false when either is over its limit, or when the run was too short to judge.
 */
export function plateauVerdict(samples, x, y, limits = PLATEAU_LIMITS) {
  const end = Math.max(...samples.map(x));
  const start = end - limits.window_calls;
  const judged = start >= 0 && samples.some((s) => x(s) <= start);
  const lastStart = end - limits.last_calls;
  const growth = judged ? minus(levelKiB(samples, x, y, start, end), levelKiB(samples, x, y, start, start + LEVEL_CALLS)) : null;
  const lastGrowth = judged ? minus(levelKiB(samples, x, y, end - LEVEL_CALLS, end), levelKiB(samples, x, y, lastStart, lastStart + LEVEL_CALLS)) : null;
  return {
    window: judged ? [start, end] : null,
    growth_kib: growth,
    last_growth_kib: lastGrowth,
    limits: { growth_kib: limits.growth_kib, last_growth_kib: limits.last_growth_kib, window_calls: limits.window_calls, last_calls: limits.last_calls },
    ok: growth !== null && lastGrowth !== null && growth < limits.growth_kib && lastGrowth < limits.last_growth_kib,
  };
}
