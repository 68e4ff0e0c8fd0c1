import { BridgeError } from "../contract/errors.js";
import type { Deadline } from "../contract/deadline.js";
import type { CallAdmission } from "../mcp/call-tool.js";

/** One peer's share of the scheduler: its admission, and how many of its calls run and wait. */
export interface PeerQueue extends CallAdmission {
  readonly running: number;
  readonly queued: number;
  /** The peer is gone: its waiting calls are refused and its queue leaves the rotation. */
  close(): void;
}

export interface FairSchedulerLimits {
  /** Calls of one peer that run at once (`[shared] max_calls_per_peer`). */
  readonly perPeer: number;
  /** Calls of all peers that run at once (`[shared] max_calls_in_flight`). */
  readonly total: number;
}

interface Waiter {
  readonly start: () => void;
  readonly refuse: (error: BridgeError) => void;
}

class Queue implements PeerQueue {
  running = 0;
  readonly waiting: Waiter[] = [];
  closed = false;

  constructor(private readonly scheduler: FairScheduler) {}

  get queued(): number {
    return this.waiting.length;
  }

  admit(deadline: Deadline, signal: AbortSignal): Promise<() => void> {
    return this.scheduler.enqueue(this, deadline, signal);
  }

  close(): void {
    this.scheduler.drop(this);
  }
}

/**
 * Fair sharing of the shared server between its peers. Each peer (one attached MCP client) gets
 * a queue; at most `perPeer` of a queue's calls run at once and at most `total` of all queues', and
 * a freed slot goes to the next queue in turn (round-robin) that has a call waiting. A peer that
 * fires a thousand calls therefore queues behind its own calls, not in front of everyone else's:
 * another peer's call waits at most for the calls already running, then gets the next turn.
 * Knows nothing of MCP or sockets: it orders promises.
 */
export class FairScheduler {
  readonly #limits: FairSchedulerLimits;
  readonly #queues: Queue[] = [];
  // The queue served last: the next turn starts after it.
  #last: Queue | null = null;
  #running = 0;

  constructor(limits: FairSchedulerLimits) {
    this.#limits = limits;
  }

  /** A new queue, last in the rotation. */
  queue(): PeerQueue {
    const queue = new Queue(this);
    this.#queues.push(queue);
    return queue;
  }

  /** Calls running and waiting across all queues, for the shared server's status. */
  stats(): { running: number; queued: number; peers: number } {
    return { running: this.#running, queued: this.#queues.reduce((sum, queue) => sum + queue.waiting.length, 0), peers: this.#queues.length };
  }

  /** @internal The queue's admit. */
  enqueue(queue: Queue, deadline: Deadline, signal: AbortSignal): Promise<() => void> {
    if (queue.closed) return Promise.reject(new BridgeError("SessionDead", "the peer's connection to the shared server has ended", {}));
    if (signal.aborted) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      let waiter: Waiter;
      const leave = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        const at = queue.waiting.indexOf(waiter);
        if (at >= 0) queue.waiting.splice(at, 1);
      };
      const timer = setTimeout(() => {
        leave();
        reject(
          new BridgeError("Timeout", `the call waited ${deadline.totalMs} ms for its turn at the shared server`, {
            timeout_ms: deadline.totalMs,
            waiting_for: "a turn",
          }),
        );
      }, deadline.remainingMs());
      const onAbort = (): void => {
        leave();
        reject(cancelled());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      waiter = {
        start: () => {
          leave();
          resolve(this.#releaseOf(queue));
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
      };
      queue.waiting.push(waiter);
      this.#pump();
    });
  }

  /** @internal The queue's close. */
  drop(queue: Queue): void {
    if (queue.closed) return;
    queue.closed = true;
    const at = this.#queues.indexOf(queue);
    if (at >= 0) this.#queues.splice(at, 1);
    // The turn passes to the queue that followed it.
    if (this.#last === queue) this.#last = at > 0 ? this.#queues[at - 1]! : null;
    for (const waiter of [...queue.waiting]) waiter.refuse(new BridgeError("SessionDead", "the peer's connection to the shared server has ended", {}));
  }

  #releaseOf(queue: Queue): () => void {
    this.#running++;
    queue.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      queue.running--;
      this.#pump();
    };
  }

  // Hands free slots out in turn: from the queue after the one served last, the first queue with
  // a waiting call and room under its own limit.
  #pump(): void {
    while (this.#running < this.#limits.total) {
      const count = this.#queues.length;
      const from = this.#last === null ? 0 : this.#queues.indexOf(this.#last) + 1;
      let served = false;
      for (let step = 0; step < count; step++) {
        const queue = this.#queues[(from + step) % count]!;
        if (queue.waiting.length === 0 || queue.running >= this.#limits.perPeer) continue;
        this.#last = queue;
        queue.waiting[0]!.start();
        served = true;
        break;
      }
      if (!served) return;
    }
  }
}

function cancelled(): BridgeError {
  return new BridgeError("Timeout", "the call was cancelled by the client while it waited for its turn", { cancelled: true });
}
