/**
 * A FIFO queue that runs at most `limit` tasks at once. Maude checks are CPU-bound processes, so
 * the server runs a bounded number of them and queues the rest in arrival order.
 */
export class CheckQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** @param limit the most tasks running at once; at least 1. */
  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  }

  /** Runs `task` when a slot is free; settles as the task settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiter, so no newcomer can jump in.
    if (this.running >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running--;
    }
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}
