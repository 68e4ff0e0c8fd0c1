import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ResolvedWorkspace } from "./types.js";
import { replaceFile } from "./own-files.js";
import { toolCacheDir } from "./tool-cache.js";

/**
 * A folder of one workspace's own, outside its checkout, where a server's toolchain keeps build
 * state: `{workspace_cache}/...` in a server's `env`. cargo's target folder is the case: cargo
 * judges a path package fresh by file times and keys its units by their path *inside* the
 * workspace, so two copies of one repository (worktrees, clones, a `since` snapshot) sharing one
 * target folder read each other's cached warnings — a copy checked second answers with the
 * first one's findings. One folder per workspace root keeps them apart.
 */

/** The prefix by which a server's `env` names its workspace's own folder. */
const WORKSPACE_CACHE_PREFIX = "{workspace_cache}/";

/** The file in a workspace's folder naming the root it belongs to, read by the sweep. */
const ROOT_FILE = "root";

/** Where the folders of workspaces that have no folder of their own (`state_dir`) are kept. */
export function workspaceCachesDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolCacheDir(env), "workspaces");
}

/** The folder of `workspace`: its `state_dir` (a snapshot's, removed with it), else one in the tool cache named by its root. */
export function workspaceCacheDir(workspace: Pick<ResolvedWorkspace, "root" | "state_dir">, env: NodeJS.ProcessEnv = process.env): string {
  if (workspace.state_dir !== undefined) return workspace.state_dir;
  const key = createHash("sha256").update(workspace.root).digest("hex").slice(0, 16);
  return join(workspaceCachesDir(env), key);
}

/** True when some value of `env` names the workspace's folder. */
function namesWorkspaceCache(env: Readonly<Record<string, string>>): boolean {
  return Object.values(env).some((value) => value.startsWith(WORKSPACE_CACHE_PREFIX));
}

/**
 * `env` with each leading `{workspace_cache}/` replaced by the workspace's folder, made when
 * missing (and its root recorded for the sweep). Folders of roots that no longer exist are
 * removed first: a removed worktree's build state would otherwise stay in the cache for good.
 */
export async function expandWorkspaceCache(
  env: Readonly<Record<string, string>>,
  workspace: Pick<ResolvedWorkspace, "root" | "state_dir">,
  processEnv: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  if (!namesWorkspaceCache(env)) return { ...env };
  if (workspace.state_dir === undefined) await sweepWorkspaceCaches(processEnv);
  const dir = workspaceCacheDir(workspace, processEnv);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (workspace.state_dir === undefined && !existsSync(join(dir, ROOT_FILE))) {
    // Written whole or not at all (the sweep reads it), and never through a link.
    replaceFile(join(dir, ROOT_FILE), workspace.root, 0o600);
  }
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [key, value.startsWith(WORKSPACE_CACHE_PREFIX) ? join(dir, value.slice(WORKSPACE_CACHE_PREFIX.length)) : value]),
  );
}

/**
 * Removes every workspace folder whose recorded root no longer exists; a folder without its
 * record yet (being made) is left alone. Returns how many were removed.
 */
export async function sweepWorkspaceCaches(processEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parent = workspaceCachesDir(processEnv);
  let removed = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const dir = join(parent, name);
    const root = await readFile(join(dir, ROOT_FILE), "utf8").catch(() => null);
    if (root === null || root === "" || existsSync(root)) continue;
    await rm(dir, { recursive: true, force: true, maxRetries: 2 });
    removed++;
  }
  return removed;
}
