import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver-protocol";

type WorkDoneValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/**
 * Tracks the server's running work-done progress (`$/progress` begin … end). Diagnostics only
 * count as settled while nothing is running, so listeners hear every change of `isIdle()`.
 */
export class ProgressTracker {
  private readonly running = new Set<ProgressToken>();
  private readonly listeners = new Set<() => void>();

  /** Feed one `$/progress` value; values that are not work-done progress are ignored. */
  onProgress(token: ProgressToken, value: unknown): void {
    const kind = (value as WorkDoneValue | undefined)?.kind;
    if (kind === "begin") this.running.add(token);
    else if (kind === "end") this.running.delete(token);
    else return;
    for (const listener of this.listeners) listener();
  }

  /** True when no work-done progress is running. */
  isIdle(): boolean {
    return this.running.size === 0;
  }

  /** Called after every begin/end; returns an unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
