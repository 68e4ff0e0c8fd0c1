import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, type Dirent } from "node:fs";
import { dirname, join } from "node:path";
import { fileStamp, type FileStamp } from "../files/file-stamp.js";

/**
 * How long after a write a file's stat cannot be trusted to show the next write: two writes of
 * the same size within one tick of the file system's clock leave the same mtime. Generous
 * (file systems with whole-second times), since a racy file only costs a re-check.
 */
export const RACY_MS = 2000;

/** A change on disk, as `workspace/didChangeWatchedFiles` reports it. */
export interface DiskChange {
  /** Absolute. */
  readonly path: string;
  readonly kind: "created" | "changed" | "deleted";
}

interface Record {
  readonly stamp: string;
  /**
   * Its mtime was within {@link RACY_MS} of the look: the digest of its content then, which the
   * next look compares (the stat cannot show a second write in the same clock tick); else null.
   */
  readonly racyDigest: string | null;
}

/**
 * What a server has been told of the files on disk, by their stat: size, mtime, ctime and inode.
 * A file whose stat differs from the record has changed; so has a racy one (written so recently
 * that a second write in the same clock tick would not show) whose content differs from what it
 * was at the last look — compared by content, so a fresh clone is not re-reported whole. Before the first look, the server
 * read every file itself after `serverStartMs`: a file not written since then (by more than the
 * racy margin) is what it read; any other is reported `created`, which a server takes for a
 * change of a file it knows and an addition otherwise.
 */
export class DiskView {
  private readonly records = new Map<string, Record>();
  // The folders holding recorded files, by stat: a file created or removed changes its folder's.
  private readonly folders = new Map<string, string>();
  private looked = false;

  /**
   * `wanted` says which files a new folder entry must be (what a complete look would list);
   * folders named in `skipped` (such as node_modules) are never entered for new files.
   */
  constructor(
    private readonly serverStartMs: number,
    private readonly wanted: (path: string) => boolean = () => true,
    private readonly skipped: ReadonlySet<string> = new Set(["node_modules", ".git"]),
  ) {}

  /** Whether a complete look has been taken (before it, quick looks have nothing to compare). */
  get hasLooked(): boolean {
    return this.looked;
  }

  /**
   * Compares `files` (absolute; every relevant file now listed) with the record, records what is
   * there now, and returns the changes: files gone since are `deleted`. `folders` are recorded
   * for quick looks (every folder of the listing, not only those holding relevant files, so that
   * a relevant file new in any of them is found); by default the files' own. `known`: the stamps
   * the call's discovery took of some of them just before, taken instead of a second look.
   */
  lookAtAll(
    files: readonly string[],
    folders: Iterable<string> = files.map((path) => dirname(path)),
    nowMs = Date.now(),
    known: ReadonlyMap<string, FileStamp> = new Map(),
  ): DiskChange[] {
    const changes: DiskChange[] = [];
    const listed = new Set(files);
    for (const path of files) {
      const change = this.lookAt(path, nowMs, known.get(path));
      if (change) changes.push(change);
    }
    for (const path of [...this.records.keys()]) {
      if (listed.has(path)) continue;
      this.records.delete(path);
      changes.push({ path, kind: "deleted" });
    }
    this.folders.clear();
    for (const folder of folders) if (!this.folders.has(folder)) this.recordFolder(folder);
    this.looked = true;
    return changes;
  }

  /**
   * Looks again at the recorded files, and at their folders: a folder whose stat changed is read
   * for new files (and new sub-folders, walked), so a file created since is found without
   * listing the workspace again.
   */
  lookAtRecorded(nowMs = Date.now()): DiskChange[] {
    const changes: DiskChange[] = [];
    for (const path of [...this.records.keys()]) {
      const change = this.lookAt(path, nowMs);
      if (change) changes.push(change);
    }
    for (const [folder, stamp] of [...this.folders]) {
      if (stampOf(folder) === stamp) continue;
      this.recordFolder(folder);
      this.findNew(folder, changes, nowMs);
    }
    return changes;
  }

  private findNew(folder: string, changes: DiskChange[], nowMs: number): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !this.skipped.has(entry.name) && !this.folders.has(path)) {
        this.recordFolder(path);
        this.findNew(path, changes, nowMs);
      } else if (entry.isFile() && this.wanted(path) && !this.records.has(path)) {
        const change = this.lookAt(path, nowMs);
        if (change) changes.push(change);
      }
    }
  }

  private recordFolder(folder: string): void {
    const stamp = stampOf(folder);
    if (stamp === null) this.folders.delete(folder);
    else this.folders.set(folder, stamp);
  }

  /** Forgets a file (the server was told it is gone by other means). */
  forget(path: string): void {
    this.records.delete(path);
  }

  private lookAt(path: string, nowMs: number, known?: FileStamp): DiskChange | null {
    const before = this.records.get(path);
    const stats = known ?? statOf(path);
    if (stats === null) {
      if (!before) return null;
      this.records.delete(path);
      return { path, kind: "deleted" };
    }
    const racy = stats.mtimeMs >= nowMs - RACY_MS;
    // A digest is read only when one will be compared: a racy file now, or a racy one before.
    const digest = racy || before?.racyDigest ? digestOf(path) : null;
    this.records.set(path, { stamp: stats.stamp, racyDigest: racy ? digest : null });
    if (!before) {
      if (!this.looked) return stats.mtimeMs >= this.serverStartMs - RACY_MS ? { path, kind: "created" } : null;
      return { path, kind: "created" };
    }
    if (before.stamp !== stats.stamp) return { path, kind: "changed" };
    return before.racyDigest !== null && (digest === null || digest !== before.racyDigest) ? { path, kind: "changed" } : null;
  }
}

/** The content's digest, or null when it cannot be read (then it counts as changed). */
function digestOf(path: string): string | null {
  try {
    return createHash("sha1").update(readFileSync(path)).digest("base64");
  } catch {
    return null;
  }
}

function stampOf(folder: string): string | null {
  try {
    const stats = statSync(folder, { bigint: true });
    return `${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}`;
  } catch {
    return null;
  }
}

function statOf(path: string): FileStamp | null {
  try {
    return fileStamp(statSync(path, { bigint: true }));
  } catch {
    return null;
  }
}
