// The one deadline poll of the tests: a check looked at again and again until it holds or the
// deadline passes. It waits on a condition, never for readiness by the clock.
import { setTimeout as delay } from "node:timers/promises";

/** Polls until `check` holds or `ms` pass; resolves whether it held (looked at once more at the end). */
export async function pollUntil(check: () => boolean | Promise<boolean>, ms: number, intervalMs = 10): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await delay(intervalMs);
  }
}
