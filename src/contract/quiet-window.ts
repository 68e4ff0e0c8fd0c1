/**
 * The standard settle rule's quiet window after a push answer, in milliseconds, where a server's
 * entry sets none (`settle_quiet_ms`): above the longest silence measured between a file's first
 * publish and its last on a loaded machine (typescript-language-server on ajv's 106 files, 2.1 s
 * between a file's syntax and its semantic publish), with a margin. docs/contributors/adapters.md gives the
 * measurements.
 */
export const DEFAULT_SETTLE_QUIET_MS = 3000;

/** Clock ticks a second in /proc's CPU times (USER_HZ, 100 on every Linux the bridge runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The share of one core a server's tree may use through a quiet window and still count as idle:
 * an idle server's event loop, timers and the garbage collector stay well under it, while a
 * server computing its next publish uses more even on a loaded machine, where it gets a small
 * share of a core (2 %: 60 ms in a 3 s window).
 */
const IDLE_SHARE = 0.02;

/**
 * Whether a server's tree kept computing through a quiet window of `windowMs`, by its CPU ticks
 * before and after: then no publish may have been its last, and the window starts again. Unknown
 * ticks (no /proc reading) count as idle, as the window alone decided before.
 */
export function busyThroughWindow(before: number | null, after: number | null, windowMs: number): boolean {
  if (before === null || after === null) return false;
  return after - before > Math.max(2, (windowMs / 1000) * TICKS_PER_SECOND * IDLE_SHARE);
}
