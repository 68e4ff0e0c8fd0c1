import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, fsyncSync, openSync, readFileSync, renameSync, type Stats, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * How lspmcp opens the files it writes, so that none is ever written through a symlink: a folder
 * it does not own (a checkout, a shared temp folder) may hold a link planted under the very name
 * lspmcp is about to write, pointing at another file of the user's.
 */

/** A new file only: O_EXCL fails on any name that exists, a symlink (dangling or not) included. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Writes `data` as the whole of `path`: into a new file beside it (created exclusively), synced,
 * then renamed over `path`. A symlink at `path` is replaced, never followed, and a reader sees the
 * old content or the new, never half. `syncFolder`: the rename is made durable too.
 */
export function replaceFile(path: string, data: string, mode = 0o600, syncFolder = false): void {
  const aside = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(aside, CREATE_NEW, mode);
  try {
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(aside, path);
  } catch (error) {
    unlinkSync(aside);
    throw error;
  }
  if (syncFolder) syncFolderOf(path);
}

/**
 * Opens `path` to append to it, creating it (mode 0600) when missing. Refuses (throws) a symlink
 * at `path`, and anything but a regular file of this user's with one name (a hard link to another
 * file would be written through as well as a symlink). Returns the descriptor.
 */
export function openOwnForAppend(path: string): number {
  const fd = openNoFollow(path, APPEND, 0o600);
  try {
    requireOwnFile(fd, path);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The text of `path`, which must be a regular file of this user's, not reached through a symlink
 * at its last name; throws with the reason otherwise. `mode`: its permission bits are checked
 * to allow no more than these (0o600: nobody else may read it).
 */
export function readOwnFile(path: string, mode?: number): string {
  const fd = openNoFollow(path, READ);
  try {
    const stats = requireOwnFile(fd, path);
    if (mode !== undefined && (stats.mode & 0o777 & ~mode) !== 0) {
      throw new NotOwnFile(path, `is open to others (mode ${(stats.mode & 0o777).toString(8)}); make it mode ${mode.toString(8)}`);
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Makes the renames and removals in the folder of `path` durable. */
export function syncFolderOf(path: string): void {
  const fd = openSync(dirname(path), "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file lspmcp refuses to read or write as its own; `reason` says why ("is a symlink"...). */
export class NotOwnFile extends Error {
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`${path} ${reason}`);
    this.reason = reason;
  }
}

// ELOOP is what O_NOFOLLOW answers for a symlink: said as what it means.
function openNoFollow(path: string, flags: number, mode?: number): number {
  try {
    return openSync(path, flags, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new NotOwnFile(path, "is a symlink; lspmcp opens none of its own files through one");
    throw error;
  }
}

function requireOwnFile(fd: number, path: string): Stats {
  const stats = fstatSync(fd);
  if (!stats.isFile()) throw new NotOwnFile(path, "is not a regular file");
  if (stats.uid !== process.getuid?.()) throw new NotOwnFile(path, `is owned by uid ${stats.uid}, not by this user`);
  if (stats.nlink !== 1) throw new NotOwnFile(path, `has ${stats.nlink} names (a hard link)`);
  return stats;
}
