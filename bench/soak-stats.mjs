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
