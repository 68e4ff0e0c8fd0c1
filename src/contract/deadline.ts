import { BridgeError } from "./errors.js";

/**
 * An absolute point in time by which a call must finish. One deadline is shared by everything a
 * tool call does (session start, sync, settle), so the sum never exceeds the configured timeout.
 */
export class Deadline {
  private constructor(readonly at: number, readonly totalMs: number) {}

  static in(ms: number): Deadline {
    return new Deadline(Date.now() + ms, ms);
  }

  remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }

  /** The `Timeout` error of this deadline, naming what was waited for. */
  timeoutError(what: string): BridgeError {
    return new BridgeError("Timeout", `${what} did not finish within ${this.totalMs} ms`, { timeout_ms: this.totalMs, waiting_for: what });
  }

  /**
   * Resolves or rejects as `promise` does, unless the deadline passes first: then `onTimeout` runs
   * (to cancel the work) and the result is a `Timeout` error naming `what`.
   */
  race<T>(promise: Promise<T>, what: string, onTimeout?: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        onTimeout?.();
        reject(this.timeoutError(what));
      }, this.remainingMs());
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}
