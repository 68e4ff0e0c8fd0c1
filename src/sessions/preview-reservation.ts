import { AsyncLocalStorage } from "node:async_hooks";
import type { Deadline } from "../contract/deadline.js";

/** The reservations a preview of changes holds, within its run. */
const previewing = new AsyncLocalStorage<ReadonlySet<PreviewReservation>>();
/**
 * Previews running now. A run of an AsyncLocalStorage turns Node's promise hooks on for the whole
 * process, which made every promise of every later call about three times as costly; the storage
 * is disabled again (hooks off) once no preview runs, and the next run turns it on again.
 */
let runningPreviews = 0;

/**
 * One session's turn for previews of changes (CONTRACT §4.4): the calls that have its client now,
 * and the preview, if any, that has it to itself. While a preview holds it, every call but the
 * preview's own waits while {@link heldByAnother} says so.
 */
export class PreviewReservation {
  // Calls that have the client now (from `readyClient` to the end of their scope): what a
  // preview waits out before it changes what the server sees.
  private users = 0;
  private drained: (() => void)[] = [];
  private reservation: Promise<void> | null = null;

  /** `key`: the session's, for the waits' messages. */
  constructor(private readonly key: string) {}

  /**
   * The end of the preview that has the session, when it is not the running call's own; else
   * null. A value, not a wait: a call that need not wait goes on in the same turn.
   */
  heldByAnother(): Promise<void> | null {
    return this.reservation && !previewing.getStore()?.has(this) ? this.reservation : null;
  }

  /** Counts a call that has the client until the returned release runs. */
  use(): () => void {
    this.users += 1;
    return () => {
      this.users -= 1;
      if (this.users === 0) for (const resolve of this.drained.splice(0)) resolve();
    };
  }

  /**
   * Takes the session for one preview: waits for another preview's reservation to end, reserves
   * it (every later call of anyone else waits at `readyClient`), and waits until no call still
   * has the client. Returns the release; the deadline bounds the waits (`Timeout`, nothing
   * reserved).
   */
  async reserve(deadline: Deadline): Promise<() => void> {
    while (this.reservation) await deadline.race(this.reservation, `${this.key} to end another preview of changes`);
    let end!: () => void;
    this.reservation = new Promise((resolve) => (end = resolve));
    const release = () => {
      this.reservation = null;
      end();
    };
    try {
      if (this.users > 0) await deadline.race(new Promise<void>((resolve) => this.drained.push(resolve)), `the calls on ${this.key} to end before a preview`);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }
}

/**
 * Runs `work` holding every one of `reservations`, taken in the order given (so that two previews
 * taking them in one order never wait on each other in a circle): `work`'s own calls pass, every
 * other call waits until it has ended, however it ends.
 */
export async function previewHolding<T>(reservations: readonly PreviewReservation[], deadline: Deadline, work: () => Promise<T>): Promise<T> {
  const releases: (() => void)[] = [];
  try {
    for (const reservation of reservations) releases.push(await reservation.reserve(deadline));
    runningPreviews += 1;
    try {
      return await previewing.run(new Set(reservations), work);
    } finally {
      runningPreviews -= 1;
      if (runningPreviews === 0) previewing.disable();
    }
  } finally {
    for (const release of releases) release();
  }
}
