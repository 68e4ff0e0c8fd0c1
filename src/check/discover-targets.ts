import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { compareStrings } from "../contract/compare.js";
import { BridgeError } from "../contract/errors.js";
import { claimingServers, resolveFile, pickServerForFile, type FileTarget } from "../sessions/resolve-target.js";
import { filesUnder, workspaceFiles } from "./workspace-files.js";

/** One file to check, with the session that checks it (a file claimed by two servers is two targets). */
export interface CheckTarget {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly file: FileTarget;
}

/**
 * The files `check` covers, in configuration order (workspace, server) and then by path, each
 * once per server that claims it (CONTRACT §4: every claiming server reports diagnostics).
 * Without `paths`: every file of every workspace that one of its servers claims. With
 * `paths` (relative to `cwd`, or absolute): each file as given, and each folder expanded the same
 * way as a whole workspace. A path that does not exist (`FileNotFound`), lies outside every
 * workspace (`PathOutsideWorkspace`) or is a file no server claims (`NoServerForFile`) fails the
 * whole discovery before any server starts.
 */
export async function discoverTargets(config: ResolvedConfig, paths: readonly string[], cwd: string): Promise<CheckTarget[]> {
  const listings = new Map<ResolvedWorkspace, Promise<string[]>>();
  const listing = (workspace: ResolvedWorkspace): Promise<string[]> => {
    if (!listings.has(workspace)) listings.set(workspace, workspaceFiles(workspace));
    return listings.get(workspace)!;
  };
  const found: CheckTarget[] = [];
  if (paths.length === 0) {
    for (const workspace of config.workspaces) found.push(...(await claimed(config, workspace, await listing(workspace))));
  }
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const stats = await stat(absolute).catch(() => null);
    if (stats === null) throw new BridgeError("FileNotFound", `no such file or directory: ${path}`, { path });
    const { workspace, file } = holder(config, path, absolute);
    if (stats.isDirectory()) {
      found.push(...(await claimed(config, workspace, filesUnder(await listing(workspace), file.path))));
    } else {
      // An explicit file is checked even when `exclude` or .gitignore would skip it in a walk.
      found.push(...claimantsOrThrow(config, workspace, file).map((server) => ({ workspace, server, file })));
    }
  }
  return ordered(config, found);
}

/** The discovered candidates that a server claims, resolved; links leaving the root and non-files are skipped. */
async function claimed(config: ResolvedConfig, workspace: ResolvedWorkspace, relativePaths: readonly string[]): Promise<CheckTarget[]> {
  const targets = await Promise.all(
    relativePaths.map(async (relativePath) => {
      let file: FileTarget;
      let servers: ResolvedServer[];
      try {
        file = resolveFile(workspace, relativePath);
        servers = claimingServers(config, workspace, file);
      } catch {
        return [];
      }
      const stats = await stat(file.absolutePath).catch(() => null);
      // Deleted-but-tracked files and submodule folders are not sources to check.
      return stats === null || stats.isDirectory() ? [] : servers.map((server) => ({ workspace, server, file }));
    }),
  );
  return targets.flat();
}

/** Every server claiming an explicitly named file; none is `NoServerForFile`, as for a tool call. */
function claimantsOrThrow(config: ResolvedConfig, workspace: ResolvedWorkspace, file: FileTarget): ResolvedServer[] {
  const servers = claimingServers(config, workspace, file);
  if (servers.length === 0) pickServerForFile(config, workspace, undefined, file);
  return servers;
}

/** The workspace that holds a path: the deepest root containing it after symlinks are followed. */
function holder(config: ResolvedConfig, given: string, absolute: string): { workspace: ResolvedWorkspace; file: FileTarget } {
  const holders = config.workspaces.flatMap((workspace) => {
    try {
      return [{ workspace, file: resolveFile(workspace, absolute) }];
    } catch {
      return [];
    }
  });
  holders.sort((a, b) => b.workspace.root.length - a.workspace.root.length);
  if (holders[0]) return holders[0];
  throw new BridgeError("PathOutsideWorkspace", `${given} is outside every workspace`, {
    path: given,
    roots: config.workspaces.map((workspace) => workspace.root),
  });
}

function ordered(config: ResolvedConfig, targets: readonly CheckTarget[]): CheckTarget[] {
  const workspaceRank = (t: CheckTarget) => config.workspaces.indexOf(t.workspace);
  const serverRank = (t: CheckTarget) => t.workspace.servers.indexOf(t.server.name);
  const seen = new Set<string>();
  return [...targets]
    .sort((a, b) => workspaceRank(a) - workspaceRank(b) || serverRank(a) - serverRank(b) || compareStrings(a.file.path, b.file.path))
    .filter((target) => {
      const key = JSON.stringify([target.workspace.name, target.server.name, target.file.absolutePath]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
