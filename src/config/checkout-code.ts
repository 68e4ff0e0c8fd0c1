import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, sep } from "node:path";
import { gitTopLevel } from "./discover-config.js";
import type { ResolvedWorkspace } from "./types.js";

/**
 * The folder every search for a workspace's own code (its compiler) stops at: the checkout that
 * holds the workspace, which is the tree of a revision's snapshot, else the git top-level of the
 * root, else the root itself. Nothing above it is the checkout's.
 */
export function checkoutTop(workspace: Pick<ResolvedWorkspace, "root" | "checkout">): string {
  return workspace.checkout ?? gitTopLevel(workspace.root) ?? workspace.root;
}

/** Whether `path` is `folder` or lies below it (both absolute, compared as written). */
export function isWithin(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return inside === "" || (inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside));
}

/**
 * Why lspmcp may not run the checkout's own code at `path` (a file or folder found at or below
 * `top`, the checkout's top: `checkoutTop`), or null when it may. As ssh refuses a key whose file
 * or folders another user could change, the code is refused when the file, or any folder from it
 * up to `top`, is owned by another user than this one (or root), or may be written by every user
 * or by a group that is not this user's own. Where links lead elsewhere (a pnpm store, a snapshot's
 * links into its checkout, a package linked from a global folder), the real path is held to the
 * same rule up to the checkout that holds it (the top's real path, or another work tree's
 * top-level), else up to "/". Reads only metadata and the account files.
 */
export function checkoutCodeRefusal(path: string, top: string): string | null {
  let real: string;
  let realTop: string;
  try {
    real = realpathSync(path);
    realTop = realpathSync(top);
  } catch (error) {
    return `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  const inside = isWithin(path, top);
  if (inside) {
    const lexical = chainRefusal(path, top);
    if (lexical !== null || real === path) return lexical;
  }
  // A checkout is where its user chose to put it: its folders are held to the rule from its top
  // down. Anything else is held to it up to "/".
  return chainRefusal(real, isWithin(real, realTop) ? realTop : (gitTopLevel(real) ?? "/"));
}

/** The first entry of `path` and its folders up to `top` (inclusive) that this user may not trust, as a reason; null when none. */
function chainRefusal(path: string, top: string): string | null {
  for (let entry = path; ; entry = dirname(entry)) {
    const refusal = entryRefusal(entry);
    if (refusal !== null) return refusal;
    if (entry === top || dirname(entry) === entry) return null;
  }
}

function entryRefusal(entry: string): string | null {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(entry);
  } catch (error) {
    return `${entry} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  const uid = process.getuid?.() ?? 0;
  if (stats.uid !== uid && stats.uid !== 0) return `${entry} is owned by ${accountName(stats.uid, "user")}, not by this user (uid ${uid}) or root`;
  const mode = `mode ${(stats.mode & 0o7777).toString(8).padStart(4, "0")}`;
  if ((stats.mode & 0o002) !== 0) return `${entry} may be written by every user (${mode})`;
  if ((stats.mode & 0o020) !== 0 && !isOwnGroup(stats.gid, uid)) return `${entry} may be written by group ${accountName(stats.gid, "group")} (${mode})`;
  return null;
}

/**
 * Whether group `gid` is this user's own: the user's primary group, which no other account has as
 * its primary group or lists as a member (the private group that a umask of 002 makes files
 * writable by).
 */
function isOwnGroup(gid: number, uid: number): boolean {
  if (gid !== (process.getgid?.() ?? -1)) return false;
  const users = accountLines("/etc/passwd");
  const me = users.find((fields) => Number(fields[2]) === uid)?.[0];
  if (users.some((fields) => Number(fields[3]) === gid && Number(fields[2]) !== uid)) return false;
  const group = accountLines("/etc/group").find((fields) => Number(fields[2]) === gid);
  const members = (group?.[3] ?? "").split(",").filter((name) => name !== "");
  return members.every((name) => name === me);
}

/** "alice (uid 1001)", or "uid 1001" when the account files do not name it. */
function accountName(id: number, kind: "user" | "group"): string {
  const name = accountLines(kind === "user" ? "/etc/passwd" : "/etc/group").find((fields) => Number(fields[2]) === id)?.[0];
  const label = `${kind === "user" ? "uid" : "gid"} ${id}`;
  return name === undefined ? label : `${name} (${label})`;
}

function accountLines(file: string): string[][] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map((line) => line.split(":"));
  } catch {
    return [];
  }
}
