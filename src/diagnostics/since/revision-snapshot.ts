import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, realpath, rm, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ResolvedConfig } from "../../config/types.js";
import { BridgeError } from "../../contract/errors.js";
import { prepareRuntimeFolder, runtimeFolder } from "../../config/runtime-folder.js";
import { formatIdentity, identify, isAlive } from "../../supervision/proc-table.js";
import { nulFields, runGit } from "../../git/run-git.js";
import type { ResolvedRevision } from "./resolve-revision.js";

/** The committed files of one revision, written out under the runtime folder. */
export interface RevisionSnapshot {
  /** The snapshot's own folder (`since-PID-STARTTIME-RANDOM`), removed as a whole. */
  readonly dir: string;
  /** The checkout's top-level as it was at the commit, symlinks resolved. */
  readonly tree: string;
  /** Every file the commit tracks, relative to the top-level, "/" separators, sorted. */
  readonly files: readonly string[];
}

/** `since-<owner pid>-<owner start time>-<random>`: the sweep reads the owner back from the name. */
const SNAPSHOT_NAME = /^since-(\d+)-(\d+)-[0-9a-f]+$/;

/** Where the snapshots of this configuration go: its runtime folder (CONTRACT §2), made (mode 0700) when missing. */
export function snapshotParent(config: ResolvedConfig): string {
  const dir = runtimeFolder(config.shared.lease_dir);
  try {
    prepareRuntimeFolder(dir);
  } catch (error) {
    throw new BridgeError("Internal", `cannot use the runtime folder ${dir} for a snapshot: ${error instanceof Error ? error.message : String(error)}`, {
      dir,
    });
  }
  return dir;
}

/**
 * Writes the files `revision.commit` tracks into a new folder under `runtimeDir`, without touching
 * the checkout or its .git: a throwaway index outside the checkout is filled from the commit
 * (`read-tree`) and checked out by `checkout-index --prefix`, which applies the user's filters
 * and the repository's line endings as a checkout would (a filter the repository's own
 * configuration defines is off: `src/git/git-overrides.ts`). The checkout's ignored entries (`node_modules`,
 * `.venv`, generated files) are then linked in where the commit has nothing, so the snapshot
 * resolves dependencies exactly as the checkout does. The folder is named after this process, so
 * that a later bridge can sweep it once this one is gone, however it ended.
 */
export async function makeSnapshot(runtimeDir: string, revision: ResolvedRevision): Promise<RevisionSnapshot> {
  const self = identify(process.pid);
  if (!self) throw new BridgeError("Internal", "cannot read this process's own start time from /proc", {});
  const dir = join(runtimeDir, `since-${formatIdentity(self).replace(":", "-")}-${randomBytes(6).toString("hex")}`);
  const tree = join(dir, "tree");
  await mkdir(tree, { recursive: true, mode: 0o700 });
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    await mustRun(revision.top, ["read-tree", revision.commit], env);
    await mustRun(revision.top, ["checkout-index", "--all", "--force", `--prefix=${tree}/`], env);
    const files = nulFields(await mustRun(revision.top, ["ls-files", "-z"], env));
    await rm(env.GIT_INDEX_FILE, { force: true });
    // The workspace folder may not exist at the revision; its snapshot is then an empty folder.
    if (revision.prefix !== "") await mkdir(join(tree, revision.prefix), { recursive: true });
    await linkIgnored(revision.top, tree);
    return { dir, tree: await realpath(tree), files: [...new Set(files)].sort() };
  } catch (error) {
    await removeSnapshot(dir);
    throw error;
  }
}

/** Removes a snapshot folder; links into the checkout are removed, never followed. */
export async function removeSnapshot(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 2 });
}

/**
 * Removes every snapshot under `runtimeDir` whose owner (pid and start time in its name) is no
 * longer alive: what a bridge killed outright (SIGKILL) left behind. Never touches a live
 * bridge's snapshot; never throws.
 */
async function sweepSnapshots(runtimeDir: string, log: (message: string, fields?: Record<string, unknown>) => void = () => {}): Promise<number> {
  let swept = 0;
  const names = await readdir(runtimeDir).catch(() => [] as string[]);
  for (const name of names) {
    const match = SNAPSHOT_NAME.exec(name);
    if (!match || isAlive({ pid: Number(match[1]), startTime: Number(match[2]) })) continue;
    try {
      await removeSnapshot(join(runtimeDir, name));
      swept++;
      log("swept a snapshot left by a bridge that is gone", { dir: join(runtimeDir, name) });
    } catch (error) {
      log("could not sweep a snapshot", { dir: join(runtimeDir, name), error: String(error) });
    }
  }
  return swept;
}

/** The sweep at a bridge's start, in this configuration's runtime folder; never throws. */
export async function sweepSnapshotsOf(config: ResolvedConfig, log: (message: string, fields?: Record<string, unknown>) => void): Promise<void> {
  const dir = runtimeFolder(config.shared.lease_dir);
  await sweepSnapshots(dir, log).catch(() => {});
}

/**
 * Links each ignored entry of the checkout (git collapses a wholly ignored folder to one entry)
 * into the snapshot where the commit has nothing at that path and the parent folder exists.
 */
async function linkIgnored(top: string, tree: string): Promise<void> {
  const listing = await mustRun(top, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], {});
  for (const entry of nulFields(listing)) {
    const path = entry.replace(/\/$/, "");
    const at = join(tree, path);
    if ((await lstat(at).catch(() => null)) !== null) continue;
    if (!(await lstat(dirname(at)).catch(() => null))?.isDirectory()) continue;
    await symlink(join(top, path), at);
  }
}

async function mustRun(cwd: string, args: string[], env: Record<string, string>): Promise<string> {
  const result = await runGit(cwd, args, { env });
  if (result.status !== 0) {
    throw new BridgeError("Internal", `git ${args[0]} failed while making a snapshot: ${result.stderr.trim() || `status ${result.status}`}`, { cwd });
  }
  return result.stdout;
}
