import { setMaxListeners } from "node:events";
import { BridgeError } from "../../contract/errors.js";

/**
 * The first failure of a run, shared by every pool in it. Recording it aborts `signal`, so work
 * in flight can cancel itself; failures after the first (often just those cancellations) are
 * dropped, so the reason reported is the one that stopped the run. A caller's own signal (an MCP
 * cancellation) is a failure like any other.
 */
export class FirstFailure {
  private readonly controller = new AbortController();
  private first: { error: unknown } | null = null;

  constructor(caller?: AbortSignal) {
    // One listener per item in flight (see `itemSignal`): a batch per session, bounded, not a leak.
    setMaxListeners(0, this.controller.signal);
    if (!caller) return;
    const onAbort = (): void => this.record(new BridgeError("Timeout", "the call was cancelled by the client", { cancelled: true }));
    if (caller.aborted) onAbort();
    else caller.addEventListener("abort", onAbort, { once: true });
    this.controller.signal.addEventListener("abort", () => caller.removeEventListener("abort", onAbort), { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  record(error: unknown): void {
    if (this.first) return;
    this.first = { error };
    this.controller.abort();
  }

  /**
   * A signal for one item of work, aborted with the run. Every request of the item listens on
   * it rather than on the run's signal, so the run's signal carries one listener per item in
   * flight instead of one per request ever sent; `done` removes that one. Made when first read:
   * an item answered from what the bridge kept sends nothing, and needs none.
   */
  itemSignal(): { readonly signal: AbortSignal; done: () => void } {
    const run = this.signal;
    let item: AbortController | null = null;
    const onAbort = (): void => item?.abort();
    return {
      get signal(): AbortSignal {
        if (item) return item.signal;
        item = new AbortController();
        if (run.aborted) item.abort();
        else run.addEventListener("abort", onAbort, { once: true });
        return item.signal;
      },
      done: () => {
        if (item) run.removeEventListener("abort", onAbort);
      },
    };
  }

  /** Throws the first failure, if there was one. */
  rethrow(): void {
    if (this.first) throw this.first.error;
  }
}

/**
 * Runs `work` on every item with at most `limit` running at once and resolves with the results in
 * item order. After a failure anywhere in the run (see {@link FirstFailure}) no further item
 * starts, and once the items in flight have finished the promise rejects with the first failure.
 */
export async function runPool<T, R>(items: readonly T[], limit: number, failure: FirstFailure, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure.signal.aborted) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure.record(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  failure.rethrow();
  return results;
}
