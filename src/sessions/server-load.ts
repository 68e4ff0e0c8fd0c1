import { setTimeout as delay } from "node:timers/promises";

/** What a ready server shows of its load: whether it has answered yet, and its work-done progress. */
export interface LoadingServer {
  readonly hasAnswered: boolean;
  whenAnswered(): Promise<void>;
  readonly progress: { isIdle(): boolean; whenIdle(): Promise<void>; runningTitles(): string[] };
}

/**
 * While a ready server still loads, with `windowMs` left of its start's window: when that ends (at
 * the latest when the window closes); null when it is not loading or the window has closed.
 */
export function serverLoading(server: LoadingServer, windowMs: number): Promise<void> | null {
  if (windowMs <= 0) return null;
  const windowEnds = delay(windowMs, undefined, { ref: false });
  // Booting: ready, but no request answered yet (tsserver loads itself before it answers).
  if (!server.hasAnswered) return Promise.race([server.whenAnswered(), windowEnds]);
  if (server.progress.isIdle()) return null;
  return Promise.race([server.progress.whenIdle(), windowEnds]);
}

/** What a ready server is still busy with, for a Timeout's message: its running work-done progress; else null. */
export function serverBusy(key: string, server: LoadingServer): string | null {
  if (server.progress.isIdle()) return null;
  const titles = server.progress.runningTitles();
  return `${key} is still loading${titles.length > 0 ? ` (${titles.join(", ")})` : ""}`;
}
