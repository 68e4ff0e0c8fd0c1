/**
 * Tells a session when it has had no call for `idleMs` (`idle_stop_s`). A call holds the timer
 * while it runs, so a long call never counts as quiet; the countdown starts when the last holder
 * lets go, or at `touch()`. `onIdle` runs once per quiet spell and never while a call holds it.
 * With `idleMs` 0 it does nothing at all. Its timer never keeps the process alive.
 */
export class IdleTimer {
  private holders = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {}

  /** A call begins; the returned release (idempotent) ends it. */
  hold(): () => void {
    if (this.idleMs <= 0) return () => {};
    this.holders += 1;
    this.cancel();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders === 0) this.arm();
    };
  }

  /** Restarts the countdown, unless a call holds the timer (its release will). */
  touch(): void {
    if (this.idleMs > 0 && this.holders === 0) this.arm();
  }

  /** Stops the countdown (the session is no longer running). */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.holders === 0) this.onIdle();
    }, this.idleMs);
    this.timer.unref();
  }
}
