import { unlinkSync } from "node:fs";
import { NotOwnFile, readOwnFile, replaceFile, syncFolderOf } from "../config/own-files.js";
import { LeaseSchema, type Lease } from "./lease-schema.js";

/** A lease file as found on disk. `corrupt` covers empty, unreadable JSON and foreign content. */
type LeaseRead = { readonly state: "missing" } | { readonly state: "corrupt"; readonly reason: string } | { readonly state: "present"; readonly lease: Lease };

/** Reads a lease file without a lock: writers replace it by rename, so a reader sees a whole file or none. */
export function readLease(path: string): LeaseRead {
  let text: string;
  try {
    // Only a lease of this user's counts, read as itself: another user's, or a link to one, could
    // name a server of theirs.
    text = readOwnFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    if (error instanceof NotOwnFile) return { state: "corrupt", reason: error.reason };
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
  replaceFile(path, JSON.stringify(lease, null, 2) + "\n", 0o600, true);
}

/** Removes the lease file (callers hold the lock and have checked that it is theirs). */
export function removeLease(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  syncFolderOf(path);
}
