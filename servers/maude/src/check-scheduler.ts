/**
 * Decides when a document is checked. A request for text that is already being (or has been)
 * checked shares that check, so an open followed by a pull runs maude once; a request while the
 * document's previous check is still queued replaces the queued text instead of queueing
 * another run, so a burst of edits costs at most one running and one queued check.
 */
import type { CheckQueue } from "./check-queue.js";
import type { CheckReport, DocumentSnapshot } from "./checker.js";

interface Entry {
  snap: DocumentSnapshot;
  started: boolean;
  promise: Promise<CheckReport>;
}

/** Per-document check requests, coalesced as described above. */
export class CheckScheduler {
  private readonly latest = new Map<string, Entry>();

  /** @param check runs one check; it is called inside a queue slot. */
  constructor(
    private readonly queue: CheckQueue,
    private readonly check: (snap: DocumentSnapshot) => Promise<CheckReport>,
  ) {}

  /**
   * A report for `snap`'s text or for a newer text of the same document.
   * @param force re-check even when this exact text was checked (a save: loaded files may differ).
   */
  request(snap: DocumentSnapshot, force = false): Promise<CheckReport> {
    const cur = this.latest.get(snap.uri);
    if (cur !== undefined && !cur.started) {
      cur.snap = snap;
      return cur.promise;
    }
    if (cur !== undefined && !force && cur.snap.version === snap.version && cur.snap.text === snap.text) return cur.promise;
    const entry: Entry = { snap, started: false, promise: Promise.resolve(undefined as never) };
    entry.promise = this.queue.run(() => {
      entry.started = true;
      return this.check(entry.snap);
    });
    this.latest.set(snap.uri, entry);
    return entry.promise;
  }

  /** Drops what is remembered about a closed document. */
  forget(uri: string): void {
    this.latest.delete(uri);
  }
}
