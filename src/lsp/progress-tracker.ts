import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver-protocol";

type WorkDoneValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/**
 * Tracks the server's running work-done progress (`$/progress` begin … end), so that a wait that
 * starts while some is running knows it.
 */
export class ProgressTracker {
  private readonly running = new Set<ProgressToken>();

  /**
   * Feed one `$/progress` value; returns its kind, or null for values that are not work-done
   * progress (those are ignored).
   */
  onProgress(token: ProgressToken, value: unknown): WorkDoneValue["kind"] | null {
    const kind = (value as WorkDoneValue | undefined)?.kind;
    if (kind === "begin") this.running.add(token);
    else if (kind === "end") this.running.delete(token);
    else if (kind !== "report") return null;
    return kind;
  }

  /** True when no work-done progress is running. */
  isIdle(): boolean {
    return this.running.size === 0;
  }

  /** The tokens of the progress running now, in the order they began. */
  runningTokens(): ProgressToken[] {
    return [...this.running];
  }
}
