/**
 * The first failure of a run, shared by every pool in it. Recording it aborts `signal`, so work
 * in flight can cancel itself; failures after the first (often just those cancellations) are
 * dropped, so the reason reported is the one that stopped the run.
 */
export class FirstFailure {
  private readonly controller = new AbortController();
  private first: { error: unknown } | null = null;

  /** Aborted once the first failure is recorded. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * A signal of its own for one piece of work, aborted with {@link signal}. The work's waits add
   * and remove their listeners there, so the shared signal never collects one per file in flight.
   */
  signalForOne(): AbortSignal {
    return AbortSignal.any([this.controller.signal]);
  }

  record(error: unknown): void {
    if (this.first) return;
    this.first = { error };
    this.controller.abort();
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
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  failure: FirstFailure,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
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
