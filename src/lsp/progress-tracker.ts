import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver-protocol";

type WorkDoneValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/**
 * Tracks the server's running work-done progress (`$/progress` begin … end), so that a wait that
 * starts while some is running knows it, and what it is called (a call that times out while the
 * server loads says so: "Initializing JS/TS language features…").
 */
export class ProgressTracker {
  private readonly running = new Map<ProgressToken, string>();
  private idleWaiters: (() => void)[] = [];

  /**
   * Feed one `$/progress` value; returns its kind, or null for values that are not work-done
   * progress (those are ignored).
   */
  onProgress(token: ProgressToken, value: unknown): WorkDoneValue["kind"] | null {
    const kind = (value as WorkDoneValue | undefined)?.kind;
    if (kind === "begin") this.running.set(token, (value as WorkDoneProgressBegin).title ?? "");
    else if (kind === "end") {
      this.running.delete(token);
      if (this.running.size === 0) this.wakeIdleWaiters();
    } else if (kind !== "report") return null;
    return kind;
  }

  /** True when no work-done progress is running. */
  isIdle(): boolean {
    return this.running.size === 0;
  }

  /** The tokens of the progress running now, in the order they began. */
  runningTokens(): ProgressToken[] {
    return [...this.running.keys()];
  }

  /** The titles of the progress running now, in the order it began (empty titles left out). */
  runningTitles(): string[] {
    return [...this.running.values()].filter((title) => title !== "");
  }

  /** Resolves once no work-done progress runs (at once when none does). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The connection is gone: nothing runs any more, and no waiter is left hanging. */
  clear(): void {
    this.running.clear();
    this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
