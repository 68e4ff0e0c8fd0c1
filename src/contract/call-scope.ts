/**
 * What one call holds until it ends (today: the documents it asked about, so that the
 * open-document cap never closes one under it). The owner of the call closes the scope once
 * the answer is out, however the call ended; closing runs every release once.
 */
export class CallScope {
  private readonly releases: (() => void)[] = [];
  private closed = false;

  /** Runs `release` when the scope closes, or at once when it already has. */
  defer(release: () => void): void {
    if (this.closed) release();
    else this.releases.push(release);
  }

  /** Runs every deferred release, newest first; later calls do nothing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const release of this.releases.reverse()) release();
    this.releases.length = 0;
  }
}
