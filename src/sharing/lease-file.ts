import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { LeaseSchema, type Lease } from "./lease-schema.js";

/** A lease file as found on disk. `corrupt` covers empty, unreadable JSON and foreign content. */
export type LeaseRead =
  | { readonly state: "missing" }
  | { readonly state: "corrupt"; readonly reason: string }
  | { readonly state: "present"; readonly lease: Lease };

/** Reads a lease file without a lock: writers replace it by rename, so a reader sees a whole file or none. */
export function readLease(path: string): LeaseRead {
  let text: string;
  try {
    // Only a lease of this user's counts: another user's could name a server of theirs.
    const owner = statSync(path).uid;
    if (owner !== process.getuid?.()) return { state: "corrupt", reason: `owned by uid ${owner}, not by this user` };
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    return { state: "corrupt", reason: `unreadable: ${(error as Error).message}` };
  }
  if (text.trim() === "") return { state: "corrupt", reason: "empty" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { state: "corrupt", reason: "not JSON" };
  }
  const parsed = LeaseSchema.safeParse(value);
  return parsed.success ? { state: "present", lease: parsed.data } : { state: "corrupt", reason: "not an lspmcp lease" };
}

/**
 * Replaces the lease file atomically and durably: a temp file beside it, fsync, rename over the
 * old one, fsync of the folder. Callers hold the lease lock. Mode 0600: the token is a secret.
 */
export function writeLease(path: string, lease: Lease): void {
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  // Whatever fails once the temp file exists (a full disk, the rename) removes it.
  try {
    try {
      writeSync(fd, JSON.stringify(lease, null, 2) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  syncFolder(dirname(path));
}

/** Removes the lease file (callers hold the lock and have checked that it is theirs). */
export function removeLease(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  syncFolder(dirname(path));
}

// A rename or unlink is durable only once its folder is synced.
function syncFolder(folder: string): void {
  const fd = openSync(folder, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
