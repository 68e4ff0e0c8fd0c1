import { BridgeError } from "../contract/errors.js";
import type { Deadline } from "../contract/deadline.js";
import type { CallGate } from "../mcp/call-tool.js";

/** One peer's share of the scheduler: its gate, and how many of its calls run and wait. */
export interface SchedulerLane extends CallGate {
  readonly running: number;
  readonly queued: number;
  /** The peer is gone: its waiting calls are refused and its lane leaves the rotation. */
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

class Lane implements SchedulerLane {
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
 * a lane; at most `perPeer` of a lane's calls run at once and at most `total` of all lanes', and
 * a freed slot goes to the next lane in turn (round-robin) that has a call waiting. A peer that
 * fires a thousand calls therefore queues behind its own calls, not in front of everyone else's:
 * another peer's call waits at most for the calls already running, then gets the next turn.
 * Knows nothing of MCP or sockets: it orders promises.
 */
export class FairScheduler {
  readonly #limits: FairSchedulerLimits;
  readonly #lanes: Lane[] = [];
  // The lane served last: the next turn starts after it.
  #last: Lane | null = null;
  #running = 0;

  constructor(limits: FairSchedulerLimits) {
    this.#limits = limits;
  }

  /** A new lane, last in the rotation. */
  lane(): SchedulerLane {
    const lane = new Lane(this);
    this.#lanes.push(lane);
    return lane;
  }

  /** Calls running and waiting across all lanes, for the shared server's status. */
  stats(): { running: number; queued: number; peers: number } {
    return { running: this.#running, queued: this.#lanes.reduce((sum, lane) => sum + lane.waiting.length, 0), peers: this.#lanes.length };
  }

  /** @internal The lane's admit. */
  enqueue(lane: Lane, deadline: Deadline, signal: AbortSignal): Promise<() => void> {
    if (lane.closed) return Promise.reject(new BridgeError("SessionDead", "the peer's connection to the shared server has ended", {}));
    if (signal.aborted) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      let waiter: Waiter;
      const leave = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        const at = lane.waiting.indexOf(waiter);
        if (at >= 0) lane.waiting.splice(at, 1);
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
          resolve(this.#releaseOf(lane));
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
      };
      lane.waiting.push(waiter);
      this.#pump();
    });
  }

  /** @internal The lane's close. */
  drop(lane: Lane): void {
    if (lane.closed) return;
    lane.closed = true;
    const at = this.#lanes.indexOf(lane);
    if (at >= 0) this.#lanes.splice(at, 1);
    // The turn passes to the lane that followed it.
    if (this.#last === lane) this.#last = at > 0 ? this.#lanes[at - 1]! : null;
    for (const waiter of [...lane.waiting]) waiter.refuse(new BridgeError("SessionDead", "the peer's connection to the shared server has ended", {}));
  }

  #releaseOf(lane: Lane): () => void {
    this.#running++;
    lane.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      lane.running--;
      this.#pump();
    };
  }

  // Hands free slots out in turn: from the lane after the one served last, the first lane with
  // a waiting call and room under its own limit.
  #pump(): void {
    while (this.#running < this.#limits.total) {
      const count = this.#lanes.length;
      const from = this.#last === null ? 0 : this.#lanes.indexOf(this.#last) + 1;
      let served = false;
      for (let step = 0; step < count; step++) {
        const lane = this.#lanes[(from + step) % count]!;
        if (lane.waiting.length === 0 || lane.running >= this.#limits.perPeer) continue;
        this.#last = lane;
        lane.waiting[0]!.start();
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
