import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { compareStrings } from "../contract/compare.js";
import { BridgeError } from "../contract/errors.js";
import {
  claimingServers,
  languageFor,
  pickServerForFile,
  pickWorkspace,
  resolveFile,
  resolveListedFile,
  type FileTarget,
  type ResolvedTarget,
} from "./resolve-target.js";
import type { FileStamp, WorkspaceListing } from "../files/file-stamp.js";
import { filesUnder, workspaceFiles } from "../files/workspace-files.js";
import { toolchainLookups, type ToolchainLookups } from "../languages/index.js";
import { serverForFile } from "./toolchain-server.js";

/** What one workspace adds to a discovery's scope: the paths asked for, relative to its root ("" is the root). */
interface WorkspaceScope {
  readonly workspace: ResolvedWorkspace;
  readonly paths: readonly string[];
}

/**
 * The targets found, resolved once (a file claimed by several servers is one target per server:
 * the runner asks each of them), and the scope they were found for, per workspace in
 * configuration order: what `since` looks for at the revision.
 */
export interface Discovery {
  readonly targets: ResolvedTarget[];
  readonly scope: WorkspaceScope[];
  /**
   * The listing of each workspace a folder was expanded from (`workspaceFiles`), with the stamps
   * of the files discovery looked at: the runner hands it to the disk view of a server whose files
   * the bridge watches, so one call lists a workspace, and looks at each file, once.
   */
  readonly listings: ReadonlyMap<ResolvedWorkspace, WorkspaceListing>;
}

/**
 * The files `check` covers, in configuration order (workspace, server) and then by path, each
 * once. Without `paths`: every file of every workspace that one of its servers claims. With
 * `paths` (relative to `cwd`, or absolute; each in the deepest workspace holding it): each file as
 * given, and each folder expanded the same way as a whole workspace. A path that does not exist
 * (`FileNotFound`), lies outside every workspace (`PathOutsideWorkspace`) or is a file no server
 * claims (`NoServerForFile`) fails the whole discovery before any server starts.
 */
export async function discoverTargets(config: ResolvedConfig, paths: readonly string[], cwd: string): Promise<Discovery> {
  const listing = listingCache(config.shared.lease_dir);
  const found: ResolvedTarget[] = [];
  if (paths.length === 0) {
    for (const workspace of config.workspaces)
      found.push(...(await claimed(config, workspace, undefined, await listing(workspace), listing.stampsOf(workspace), listing.lookups)));
    return { targets: ordered(config, found), scope: config.workspaces.map((workspace) => ({ workspace, paths: [""] })), listings: listing.taken };
  }
  const asked = new Map<ResolvedWorkspace, string[]>();
  for (const path of paths) {
    const { workspace, file } = holder(config, path, resolve(cwd, path));
    asked.set(workspace, [...(asked.get(workspace) ?? []), file.path]);
    found.push(...(await expand(config, workspace, undefined, path, file, listing)));
  }
  return { targets: ordered(config, found), scope: scopeOf(config, asked), listings: listing.taken };
}

/**
 * The files the `diagnostics` tool covers for `paths` (each relative to its workspace's root, or
 * absolute inside it; `"."` is the root), each in its workspace: the named one, the only one, or
 * the one holding an absolute path. Every path is resolved (and every bad one refused) before any
 * server is asked; one discovery per workspace, in configuration order, so each session's files
 * are neighbours and each file appears once.
 */
export async function discoverForCall(
  config: ResolvedConfig,
  workspaceName: string | undefined,
  serverName: string | undefined,
  paths: readonly string[],
): Promise<Discovery> {
  const given = new Map<ResolvedWorkspace, string[]>();
  for (const path of paths) {
    const workspace = pickWorkspace(config, workspaceName, path);
    given.set(workspace, [...(given.get(workspace) ?? []), path]);
  }
  const targets: ResolvedTarget[] = [];
  const asked = new Map<ResolvedWorkspace, string[]>();
  const listing = listingCache(config.shared.lease_dir);
  for (const workspace of config.workspaces) {
    const inside = given.get(workspace);
    if (!inside) continue;
    const found = await inWorkspace(config, workspace, serverName, inside, listing);
    targets.push(...found.targets);
    asked.set(workspace, found.paths);
  }
  return { targets, scope: scopeOf(config, asked), listings: listing.taken };
}

/**
 * The files of `paths` of one workspace (as for `discoverForCall`), only those `serverName` claims
 * when it is given: a file as given, a folder as `check` expands it (git-aware, `exclude`
 * honoured). A missing path is `FileNotFound`, one outside the root `PathOutsideWorkspace`, a file
 * no server claims `NoServerForFile`; a folder with no claimed file adds nothing. `files`, when
 * given, is the workspace's candidate list to expand folders from instead of its own listing (a
 * revision's snapshot is no checkout: its candidates are what the commit tracks).
 */
export async function discoverInWorkspace(
  config: ResolvedConfig,
  workspace: ResolvedWorkspace,
  serverName: string | undefined,
  paths: readonly string[],
  files?: readonly string[],
): Promise<ResolvedTarget[]> {
  const listing: Listing =
    files === undefined
      ? listingCache(config.shared.lease_dir)
      : Object.assign(async () => [...files], { stampsOf: () => undefined, lookups: toolchainLookups() });
  return (await inWorkspace(config, workspace, serverName, paths, listing)).targets;
}

async function inWorkspace(
  config: ResolvedConfig,
  workspace: ResolvedWorkspace,
  serverName: string | undefined,
  paths: readonly string[],
  listing: Listing,
): Promise<{ targets: ResolvedTarget[]; paths: string[] }> {
  const found: ResolvedTarget[] = [];
  const resolved: string[] = [];
  for (const path of paths) {
    const file = resolveFile(workspace, path);
    resolved.push(file.path);
    found.push(...(await expand(config, workspace, serverName, path, file, listing)));
  }
  return { targets: ordered(config, found), paths: resolved };
}

function scopeOf(config: ResolvedConfig, asked: ReadonlyMap<ResolvedWorkspace, string[]>): WorkspaceScope[] {
  return config.workspaces.flatMap((workspace) => (asked.has(workspace) ? [{ workspace, paths: asked.get(workspace)! }] : []));
}

/** A workspace's candidate files, and where the stamps of those looked at go (none for a revision's). */
type Listing = ((workspace: ResolvedWorkspace) => Promise<string[]>) & {
  readonly stampsOf: (workspace: ResolvedWorkspace) => Map<string, FileStamp> | undefined;
  /** What the discovery learnt of the folders' toolchains, so that each folder is looked at once. */
  readonly lookups: ToolchainLookups;
};

/** One listing per workspace and discovery, however many folders of it are named; `taken` holds each once it is made. */
function listingCache(leaseDir: string | null): Listing & { readonly taken: Map<ResolvedWorkspace, WorkspaceListing> } {
  const listings = new Map<ResolvedWorkspace, Promise<string[]>>();
  const taken = new Map<ResolvedWorkspace, { paths: readonly string[]; stamps: Map<string, FileStamp> }>();
  const listing = (workspace: ResolvedWorkspace): Promise<string[]> => {
    if (!listings.has(workspace)) {
      listings.set(
        workspace,
        workspaceFiles(workspace, leaseDir).then((files) => {
          taken.set(workspace, { paths: files, stamps: new Map() });
          return files;
        }),
      );
    }
    return listings.get(workspace)!;
  };
  return Object.assign(listing, { taken, stampsOf: (workspace: ResolvedWorkspace) => taken.get(workspace)?.stamps, lookups: toolchainLookups() });
}

async function expand(
  config: ResolvedConfig,
  workspace: ResolvedWorkspace,
  serverName: string | undefined,
  given: string,
  file: FileTarget,
  listing: Listing,
): Promise<ResolvedTarget[]> {
  const stats = await stat(file.absolutePath).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" || error.code === "ENOTDIR" ? null : undefined));
  if (stats === null) throw new BridgeError("FileNotFound", `no such file or directory: ${given}`, { path: given });
  // Anything else that cannot be stat'ed (a symlink loop, no permission) is a file, which the
  // read then refuses with the precise reason (FileUnreadable).
  const lookups = listing.lookups;
  if (stats?.isDirectory())
    return claimed(config, workspace, serverName, filesUnder(await listing(workspace), file.path), listing.stampsOf(workspace), lookups);
  // An explicit file is checked even when `exclude` or .gitignore would skip it in a walk.
  return serversFor(config, workspace, serverName, file).map((server) => ({
    workspace,
    server: serverForFile(server, workspace, file.absolutePath, lookups),
    languageId: languageFor(server, file)!,
    file,
  }));
}

/**
 * The servers that answer for a file: the named one, else every server of the workspace that
 * claims it (a type checker and a linter both, CONTRACT §4 "Several servers for one file"). A
 * file nobody claims, or a named server that does not claim it, is the same error as for a tool
 * call.
 */
function serversFor(config: ResolvedConfig, workspace: ResolvedWorkspace, serverName: string | undefined, file: FileTarget): ResolvedServer[] {
  const servers = serverName === undefined ? claimingServers(config, workspace, file) : [];
  return servers.length > 0 ? servers : [pickServerForFile(config, workspace, serverName, file).server];
}

/** The discovered candidates that a server claims, resolved; links leaving the root and non-files are skipped. */
async function claimed(
  config: ResolvedConfig,
  workspace: ResolvedWorkspace,
  serverName: string | undefined,
  relativePaths: readonly string[],
  stamps: Map<string, FileStamp> | undefined,
  lookups: ToolchainLookups,
): Promise<ResolvedTarget[]> {
  const claims = claimsOfListed(config, workspace, serverName);
  // One synchronous look each: thousands of files cost less than as many queued promises.
  return relativePaths.flatMap((relativePath) => {
    // Deleted-but-tracked files and submodule folders are not sources to check.
    const file = resolveListedFile(workspace, relativePath, stamps);
    if (file === null) return [];
    return claims(file).map(({ server, languageId }) => ({
      workspace,
      server: serverForFile(server, workspace, file.absolutePath, lookups),
      languageId,
      file,
    }));
  });
}

/**
 * `serversFor` a listed file, with each server's language id; none for a file no server claims.
 * Worked out once per extension: what claims a file depends on its name only when a server claims
 * files of that name or the workspace's `default_server` or `diagnostics_server` names it, and on
 * its extension otherwise.
 */
function claimsOfListed(
  config: ResolvedConfig,
  workspace: ResolvedWorkspace,
  serverName: string | undefined,
): (file: FileTarget) => readonly { readonly server: ResolvedServer; readonly languageId: string }[] {
  const named = new Set([
    ...Object.keys(workspace.default_server),
    ...Object.keys(workspace.diagnostics_server),
    ...config.servers
      .filter((server) => workspace.servers.includes(server.name))
      .flatMap((server) => server.languages.flatMap((language) => language.filenames)),
  ]);
  const outcome = (file: FileTarget) => {
    try {
      return serversFor(config, workspace, serverName, file).map((server) => ({ server, languageId: languageFor(server, file)! }));
    } catch {
      return [];
    }
  };
  const byExtension = new Map<string, ReturnType<typeof outcome>>();
  return (file) => {
    if (named.has(file.name)) return outcome(file);
    let claims = byExtension.get(file.extension);
    if (claims === undefined) byExtension.set(file.extension, (claims = outcome(file)));
    return claims;
  };
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

function ordered(config: ResolvedConfig, targets: readonly ResolvedTarget[]): ResolvedTarget[] {
  const workspaceRank = (t: ResolvedTarget) => config.workspaces.indexOf(t.workspace);
  const serverRank = (t: ResolvedTarget) => t.workspace.servers.indexOf(t.server.name);
  // A server's toolchains each have their session: the root's first, then by toolchain.
  const toolchain = (t: ResolvedTarget) => (t.server.toolchain === undefined ? "" : JSON.stringify([t.server.toolchain.key, t.server.toolchain.refused]));
  const seen = new Set<string>();
  return [...targets]
    .sort(
      (a, b) =>
        workspaceRank(a) - workspaceRank(b) ||
        serverRank(a) - serverRank(b) ||
        compareStrings(toolchain(a), toolchain(b)) ||
        compareStrings(a.file.path, b.file.path),
    )
    .filter((target) => {
      // No NUL in a path, nor in a name (letters, digits, ".", "_", "-").
      const key = `${target.workspace.name}\0${target.server.name}\0${target.file.absolutePath}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
