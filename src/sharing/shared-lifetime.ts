/**
 * When a shared server ends: once it has had no peer for `lingerMs` (for a worker that comes
 * straight back), or — right after launch — for `firstPeerMs` (the launcher attaches within
 * milliseconds unless it died). A deadline, not a readiness wait.
 */
export class SharedLifetime {
  readonly #lingerMs: number;
  readonly #firstPeerMs: number;
  readonly #onEmpty: () => void;
  #timer: NodeJS.Timeout | undefined;
  #count = 0;
  #stopped = false;

  constructor(lingerMs: number, firstPeerMs: number, onEmpty: () => void) {
    this.#lingerMs = lingerMs;
    this.#firstPeerMs = firstPeerMs;
    this.#onEmpty = onEmpty;
  }

  /** Starts the first-peer clock, unless a peer came even sooner. */
  start(): void {
    if (this.#count === 0) this.#arm(this.#firstPeerMs);
  }

  /** The peer count changed. */
  peers(count: number): void {
    this.#count = count;
    if (count > 0) this.#disarm();
    else this.#arm(this.#lingerMs);
  }

  stop(): void {
    this.#stopped = true;
    this.#disarm();
  }

  #arm(ms: number): void {
    this.#disarm();
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#onEmpty(), ms);
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
