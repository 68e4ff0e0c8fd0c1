import { lstatSync, statSync } from "node:fs";
import { basename, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { BridgeError } from "../contract/errors.js";
import type { ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { fileStamp, type FileStamp } from "../files/file-stamp.js";
import { realPath } from "../files/real-path.js";
import { serverForFile } from "./toolchain-server.js";

/** A file inside a workspace, resolved with symlinks followed. */
export interface FileTarget {
  /** Absolute real path. */
  readonly absolutePath: string;
  /** Relative to the workspace root, with `/` separators: what results show. */
  readonly path: string;
  readonly extension: string;
  /** The base name, for languages that claim whole file names ("Dockerfile"). */
  readonly name: string;
}

/**
 * A call's file resolved once, with the session that answers for it: the workspace, the server
 * (as the file's toolchain sees it: `serverForFile`) and the language id that server gives the file. Discovery makes one per (file, server); a
 * one-file tool call makes one from its arguments (`resolveTarget`); everything after takes it
 * as it is, never resolving the path again.
 */
export interface ResolvedTarget {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly languageId: string;
  readonly file: FileTarget;
}

/**
 * Resolves a one-file call, in the order that gives the most useful error first: workspace, path
 * (boundary), server, so that a bad path never costs a server start.
 */
export function resolveTarget(config: ResolvedConfig, args: { workspace?: string | undefined; server?: string | undefined; path: string }): ResolvedTarget {
  const workspace = pickWorkspace(config, args.workspace, args.path);
  const file = resolveFile(workspace, args.path);
  const { server, languageId } = pickServerForFile(config, workspace, args.server, file);
  return { workspace, server: serverForFile(server, workspace, file.absolutePath), languageId, file };
}

/** Picks the workspace: named, the only one, or the one whose root holds an absolute path. */
export function pickWorkspace(config: ResolvedConfig, name: string | undefined, path?: string): ResolvedWorkspace {
  if (name !== undefined) {
    const found = config.workspaces.find((workspace) => workspace.name === name);
    if (!found) {
      throw new BridgeError("UnknownWorkspace", `no workspace named "${name}"`, {
        workspace: name,
        known: config.workspaces.map((workspace) => workspace.name),
      });
    }
    return found;
  }
  if (config.workspaces.length === 1) return config.workspaces[0]!;
  if (path !== undefined && isAbsolute(path)) {
    const holders = config.workspaces.filter((workspace) => isInside(workspace.root, realOrLexical(path)));
    holders.sort((a, b) => b.root.length - a.root.length);
    if (holders[0]) return holders[0];
  }
  throw new BridgeError("InvalidArguments", "several workspaces are configured: name one with `workspace`", {
    fields: ["workspace"],
    known: config.workspaces.map((workspace) => workspace.name),
  });
}

/**
 * Resolves `path` (relative to the root, or absolute) to a real path and checks that it lies
 * inside the workspace after symlinks are followed. A path that does not exist is checked
 * lexically and then reported as `FileNotFound`.
 */
export function resolveFile(workspace: ResolvedWorkspace, path: string): FileTarget {
  if (path.length === 0 || path.includes("\0")) {
    throw new BridgeError("InvalidArguments", "path must be a non-empty string without NUL bytes", { fields: ["path"] });
  }
  const lexical = resolve(workspace.root, path);
  const real = realOrLexical(lexical);
  if (!isInside(workspace.root, real)) {
    throw new BridgeError("PathOutsideWorkspace", `${path} is outside workspace ${workspace.name}`, {
      path,
      workspace: workspace.name,
      root: workspace.root,
    });
  }
  return { absolutePath: real, path: workspaceRelativePath(workspace.root, real), extension: extname(real).toLowerCase(), name: basename(real) };
}

/**
 * A file of the workspace's listing (`workspaceFiles`), resolved as `resolveFile` would; null for
 * what is no file to check: gone since it was listed, a folder (a submodule), a link that leaves
 * the workspace or cannot be followed. A listing never passes through a symlinked folder and the
 * root is real, so a listed regular file is its own real path: only a link needs resolving. The
 * stamp of a regular file's look goes into `stamps` (by absolute path), for the call's disk look.
 */
export function resolveListedFile(workspace: ResolvedWorkspace, relativePath: string, stamps?: Map<string, FileStamp>): FileTarget | null {
  const lexical = resolve(workspace.root, relativePath);
  try {
    const stats = lstatSync(lexical, { bigint: true, throwIfNoEntry: false });
    if (stats === undefined || stats.isDirectory()) return null;
    const stamp = fileStamp(stats);
    if (stamp !== null) stamps?.set(lexical, stamp);
    if (!stats.isSymbolicLink()) {
      const path = lexical === `${workspace.root}${sep}${relativePath}` ? relativePath.split(sep).join("/") : workspaceRelativePath(workspace.root, lexical);
      return { absolutePath: lexical, path, extension: extname(lexical).toLowerCase(), name: basename(lexical) };
    }
    const file = resolveFile(workspace, relativePath);
    const target = statSync(file.absolutePath, { throwIfNoEntry: false });
    return target === undefined || target.isDirectory() ? null : file;
  } catch {
    return null;
  }
}

/** The workspace-relative path of an absolute path, or the absolute path when it lies outside. */
export function workspaceRelativePath(root: string, absolutePath: string): string {
  if (!isInside(root, absolutePath)) return absolutePath;
  return relative(root, absolutePath).split(sep).join("/");
}

/**
 * Picks the server for a file: the named one (it must belong to the workspace and claim the
 * file), else the only claimant, else the workspace's `default_server` for the file's claimed
 * name or extension.
 */
export function pickServerForFile(
  config: ResolvedConfig,
  workspace: ResolvedWorkspace,
  serverName: string | undefined,
  file: FileTarget,
): { server: ResolvedServer; languageId: string } {
  if (serverName !== undefined) {
    const server = namedServer(config, workspace, serverName);
    const languageId = languageFor(server, file);
    if (languageId === null) {
      throw new BridgeError("NoServerForFile", `server ${serverName} does not handle ${file.extension || file.name}`, {
        path: file.path,
        server: serverName,
        extension: file.extension,
      });
    }
    return { server, languageId };
  }
  const claimants = serversClaiming(config, workspace, file);
  if (claimants.length === 0) {
    throw new BridgeError("NoServerForFile", `no server of workspace ${workspace.name} handles ${file.path}`, {
      path: file.path,
      extension: file.extension,
      servers: workspace.servers,
    });
  }
  const chosenName = claimants.length > 1 ? (workspace.default_server[file.name] ?? workspace.default_server[file.extension]) : claimants[0]!.name;
  const chosen = claimants.find((server) => server.name === chosenName);
  if (!chosen) {
    throw new BridgeError("AmbiguousServer", `several servers handle ${file.path}: name one with \`server\``, {
      path: file.path,
      servers: claimants.map((server) => server.name),
    });
  }
  return { server: chosen, languageId: languageFor(chosen, file)! };
}

/**
 * The servers that `diagnostics` without `server` asks for the file (CONTRACT §4): the one the
 * workspace's `diagnostics_server` names for its claimed name or extension, else every server of
 * the workspace that claims it (by its whole name or its extension), in the workspace's order.
 */
export function claimingServers(config: ResolvedConfig, workspace: ResolvedWorkspace, file: FileTarget): ResolvedServer[] {
  const claimants = serversClaiming(config, workspace, file);
  const owner = workspace.diagnostics_server[file.name] ?? workspace.diagnostics_server[file.extension];
  return owner === undefined ? claimants : claimants.filter((server) => server.name === owner);
}

/** Every server of the workspace that claims the file (by its whole name or its extension), in the workspace's order. */
function serversClaiming(config: ResolvedConfig, workspace: ResolvedWorkspace, file: FileTarget): ResolvedServer[] {
  return workspaceServers(config, workspace).filter((server) => languageFor(server, file) !== null);
}

/**
 * The servers a call without a file asks: the named one, else every server of the workspace (in
 * the workspace's order), as `workspace_symbols` does (CONTRACT §4).
 */
export function serversToAsk(config: ResolvedConfig, workspace: ResolvedWorkspace, serverName: string | undefined): ResolvedServer[] {
  return serverName === undefined ? workspaceServers(config, workspace) : [namedServer(config, workspace, serverName)];
}

/** The server a call names: it must belong to the workspace (`UnknownServer` otherwise). */
export function namedServer(config: ResolvedConfig, workspace: ResolvedWorkspace, name: string): ResolvedServer {
  const server = workspace.servers.includes(name) ? config.servers.find((candidate) => candidate.name === name) : undefined;
  if (!server) {
    throw new BridgeError("UnknownServer", `workspace ${workspace.name} has no server named "${name}"`, {
      server: name,
      workspace: workspace.name,
      known: workspace.servers,
    });
  }
  return server;
}

function workspaceServers(config: ResolvedConfig, workspace: ResolvedWorkspace): ResolvedServer[] {
  return workspace.servers
    .map((name) => config.servers.find((server) => server.name === name))
    .filter((server): server is ResolvedServer => server !== undefined);
}

/** The language id a server gives the file (a claimed file name first, then the extension), or null when it does not claim it. */
export function languageFor(server: ResolvedServer, file: FileTarget): string | null {
  const byName = server.languages.find((language) => language.filenames.includes(file.name));
  if (byName) return byName.id;
  if (file.extension === "") return null;
  return server.languages.find((language) => language.extensions.includes(file.extension))?.id ?? null;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

/** The real path where it exists; for a missing file, its real parent joined with the rest. */
function realOrLexical(path: string): string {
  try {
    return realPath(path);
  } catch {
    const parent = resolve(path, "..");
    if (parent === path) return path;
    return resolve(realOrLexical(parent), path.slice(parent.length + 1));
  }
}

/**
 * The (workspace, server) pairs of `targets` by their names, in order of first appearance (each
 * with the entry of its last target): the sessions a run of them holds, as the config names them.
 */
export function sessionPairs(targets: readonly ResolvedTarget[]): { readonly workspace: ResolvedWorkspace; readonly server: ResolvedServer }[] {
  const pairs = new Map<string, { readonly workspace: ResolvedWorkspace; readonly server: ResolvedServer }>();
  for (const { workspace, server } of targets) pairs.set(sessionKey({ workspace, server }), { workspace, server });
  return [...pairs.values()];
}

/** A (workspace, server) pair's key by their names. */
export function sessionKey(pair: { readonly workspace: Pick<ResolvedWorkspace, "name">; readonly server: Pick<ResolvedServer, "name"> }): string {
  return `${pair.workspace.name}\0${pair.server.name}`;
}
