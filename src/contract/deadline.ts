import { BridgeError } from "./errors.js";

/**
 * A server a call waits on, as its deadline sees it: while it starts, or loads within its start
 * deadline (`start_timeout_ms`), the call's own time does not run out (CONTRACT §4.2 "Startup",
 * see docs/contributors/contract-notes.md).
 */
export interface LoadWatch {
  /** While the server starts or loads within its start deadline: when that ends; else null. */
  loading(): Promise<void> | null;
  /** What the server is still busy with (starting, or loading past its start deadline), for a Timeout's message; else null. */
  busy(): string | null;
}

/**
 * The point in time by which a call must finish. One deadline is shared by everything a tool call
 * does (session start, sync, settle), so the sum never exceeds the configured timeout — except
 * for the time its servers spend starting and loading: when the deadline passes while a watched
 * server does so, it waits for that to end (each server's start deadline bounds it) and then gives
 * the call its whole timeout again, counted from there.
 */
export class Deadline {
  private readonly servers = new Set<LoadWatch>();
  private loadWaitMs = 0;

  private constructor(
    private at: number,
    readonly totalMs: number,
  ) {}

  static in(ms: number): Deadline {
    return new Deadline(Date.now() + ms, ms);
  }

  /** The call now waits on `server`: its start and load extend this deadline (see the class). */
  watch(server: LoadWatch): void {
    this.servers.add(server);
  }

  remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }

  /**
   * Calls `onExpired` once, when the deadline has passed with no watched server starting or
   * loading; returns a function that cancels it.
   */
  onExpire(onExpired: () => void): () => void {
    let timer: NodeJS.Timeout | undefined;
    let cancelled = false;
    const check = (): void => {
      if (cancelled) return;
      const left = this.remainingMs();
      if (left > 0) {
        timer = setTimeout(check, left);
        return;
      }
      const load = this.currentLoad();
      if (!load) return onExpired();
      void load.then(() => {
        // The call's time counts again from the load's end even when this wait is over (the wait
        // for a start ends with the start): the call's next wait has it. Another wait on this
        // deadline may have moved it already: the call gets its time once.
        const extension = Date.now() + this.totalMs - this.at;
        if (extension > 0) {
          this.loadWaitMs += extension;
          this.at += extension;
        }
        if (!cancelled) check();
      });
    };
    timer = setTimeout(check, this.remainingMs());
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }

  /** The `Timeout` error of this deadline, naming what was waited for, and what a watched server is still busy with. */
  timeoutError(what: string): BridgeError {
    const busy = [...this.servers].map((server) => server.busy()).filter((text): text is string => text !== null);
    const waited = this.loadWaitMs > 0 ? ` (and ${this.loadWaitMs} ms more, given while the server loaded)` : "";
    const still = busy.length > 0 ? `: ${busy.join("; ")}; that goes on, and a later call will find the server ready` : "";
    return new BridgeError("Timeout", `${what} did not finish within ${this.totalMs} ms${waited}${still}`, {
      timeout_ms: this.totalMs,
      waiting_for: what,
      ...(this.loadWaitMs > 0 ? { load_wait_ms: this.loadWaitMs } : {}),
      ...(busy.length > 0 ? { still_loading: busy } : {}),
    });
  }

  /**
   * Resolves or rejects as `promise` does, unless the deadline passes first: then `onTimeout` runs
   * (to cancel the work) and the result is a `Timeout` error naming `what`.
   */
  race<T>(promise: Promise<T>, what: string, onTimeout?: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = this.onExpire(() => {
        onTimeout?.();
        reject(this.timeoutError(what));
      });
      promise.then(
        (value) => {
          cancel();
          resolve(value);
        },
        (error: unknown) => {
          cancel();
          reject(error);
        },
      );
    });
  }

  private currentLoad(): Promise<void> | null {
    for (const server of this.servers) {
      const load = server.loading();
      if (load) return load;
    }
    return null;
  }
}
