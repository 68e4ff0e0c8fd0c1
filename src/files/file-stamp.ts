import type { BigIntStats } from "node:fs";

/** What a look at a file's metadata keeps: the file changed when its stamp did. */
export interface FileStamp {
  /** Size, mtime and ctime in nanoseconds, and inode. */
  readonly stamp: string;
  readonly mtimeMs: number;
}

/** The stamp of a regular file's stats; null for anything else (a folder, a link, a device). */
export function fileStamp(stats: BigIntStats): FileStamp | null {
  if (!stats.isFile()) return null;
  return { stamp: `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}`, mtimeMs: Number(stats.mtimeNs / 1_000_000n) };
}

/**
 * A workspace's files as one call listed them (relative to its root, "/" separators), and the
 * stamp of each regular one that the call's discovery looked at, by absolute path: a later look
 * in the same call takes it instead of looking again.
 */
export interface WorkspaceListing {
  readonly paths: readonly string[];
  readonly stamps: ReadonlyMap<string, FileStamp>;
}
