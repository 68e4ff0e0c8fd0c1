import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { replaceFile } from "./own-files.js";
import { stateFolder } from "./state-folder.js";

/** A program file inside the checkout that a configuration names: its path there, and its content's SHA-256. */
export interface ProgramFile {
  readonly path: string;
  readonly sha256: string;
}

/**
 * The digest a configuration is trusted under: its real path, its content, and the content of
 * each program inside its checkout that it names, so that a changed file, the same text in
 * another place, or a changed script it runs is not what the user trusted.
 */
export function trustDigest(path: string, text: string, programs: readonly ProgramFile[] = []): string {
  const hash = createHash("sha256").update(path).update("\0").update(text);
  for (const program of programs) hash.update("\0").update(program.path).update("\0").update(program.sha256);
  return hash.digest("hex");
}

/**
 * The digest the user trusted the configuration at `path` under, or null when they never did (a
 * missing or unreadable record is no trust). A digest other than the file's own now means the
 * file changed since.
 */
export function trustedDigest(path: string, folder: string = stateFolder()): string | null {
  try {
    const record = JSON.parse(readFileSync(recordFile(folder, path), "utf8")) as { path?: unknown; digest?: unknown };
    return record.path === path && typeof record.digest === "string" ? record.digest : null;
  } catch {
    return null;
  }
}

/**
 * Records that the user trusts the configuration at `path` as it is now (`digest`), replacing
 * what was recorded for that path before, and returns the record's file. The folder is made
 * 0700 and the record 0600: it is the user's decision, for no one else to read or plant.
 */
export function recordTrust(path: string, digest: string, folder: string = stateFolder()): string {
  const file = recordFile(folder, path);
  mkdirSync(join(folder, RECORDS), { recursive: true, mode: 0o700 });
  // Written aside and renamed over, so a reader sees the old record or the new one, never half.
  replaceFile(file, `${JSON.stringify({ path, digest, trusted_at: new Date().toISOString() })}\n`, 0o600);
  return file;
}

const RECORDS = "trusted-configs";

// One record per config path: trusting a file again replaces its record, so the folder grows
// only with the number of configurations the user trusted, not with their edits.
function recordFile(folder: string, path: string): string {
  return join(folder, RECORDS, `${createHash("sha256").update(path).digest("hex")}.json`);
}
