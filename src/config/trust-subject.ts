import { createHash } from "node:crypto";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { gitTopLevel } from "../exec/own-command.js";
import { programKeys, type ProgramKey } from "./program-keys.js";
import type { ProgramFile } from "./trust-store.js";
import type { ResolvedConfig } from "./types.js";

/**
 * What the trust of a configuration file is judged on: the file as it is, however it was named
 * (through a symlinked folder, a link to it, a relative or absolute path).
 */
export interface TrustSubject {
  /** The file's real path: what a trust record is kept under. */
  readonly path: string;
  /** The checkout it lies in: the git top-level of its real folder, else that folder. */
  readonly checkout: string;
  /**
   * The keys that need trust: those by which it runs a program beyond the shipped profiles'
   * own, and each workspace root outside its checkout.
   */
  readonly keys: readonly ProgramKey[];
  /** The program files inside its checkout that its servers with such keys name (command, version_command, args). */
  readonly programs: readonly ProgramFile[];
}

/** Judges the loaded `config` (its parsed `document`) as the file it is. Reads files; runs nothing. */
export async function trustSubject(config: ResolvedConfig, document: Record<string, unknown>, packageRoot: string): Promise<TrustSubject> {
  const path = realPath(config.configPath);
  const checkout = checkoutOf(path);
  const programs = await programKeys(document, dirname(config.configPath), packageRoot);
  const keys = [...programs, ...rootsOutside(config, document, checkout)];
  return { path, checkout, keys, programs: programFiles(config, programs, checkout) };
}

/** `path` with every symlink resolved; as given (absolute) when it cannot be resolved. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The checkout a file (by its real path) lies in: its folder's git top-level, else its folder. */
export function checkoutOf(realFile: string): string {
  return gitTopLevel(dirname(realFile)) ?? dirname(realFile);
}

/** Whether `path` is `folder` or lies under it (both absolute). */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/**
 * A workspace whose root (symlinks resolved, as the loader resolves it) lies outside the
 * checkout answers for files the checkout does not hold: the file chooses where lspmcp reads.
 */
function rootsOutside(config: ResolvedConfig, document: Record<string, unknown>, checkout: string): ProgramKey[] {
  const written = Array.isArray(document.workspace) ? document.workspace : [];
  return config.workspaces.flatMap((workspace, i) => {
    if (isWithin(workspace.root, checkout)) return [];
    const root = (written[i] as { root?: unknown } | undefined)?.root;
    return [{ path: `workspace[${i}].root`, value: `${JSON.stringify(root ?? workspace.root)} (outside the checkout ${checkout})` }];
  });
}

/**
 * The files inside the checkout that a server with a program key runs: its command, its version
 * command's program, and each argument that names a file (from the config's folder or a root of
 * a workspace it serves), by real path, each once, in path order.
 */
function programFiles(config: ResolvedConfig, keys: readonly ProgramKey[], checkout: string): ProgramFile[] {
  const indexes = new Set(keys.map((key) => /^server\[(\d+)\]/.exec(key.path)?.[1]).filter((index) => index !== undefined));
  const found = new Map<string, string>();
  config.servers.forEach((server, i) => {
    if (!indexes.has(String(i))) return;
    const bases = [dirname(config.configPath), ...config.workspaces.filter((w) => w.servers.includes(server.name)).map((w) => w.root)];
    const named = [server.command, ...(server.version_command?.slice(0, 1) ?? []), ...server.args];
    for (const name of named) {
      for (const candidate of isAbsolute(name) ? [name] : bases.map((base) => resolve(base, name))) {
        const file = regularFile(candidate);
        if (file !== null && isWithin(file, checkout) && !found.has(file)) found.set(file, sha256Of(file));
      }
    }
  });
  return [...found].map(([file, sha256]) => ({ path: relative(checkout, file), sha256 })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function regularFile(path: string): string | null {
  try {
    return statSync(path).isFile() ? realpathSync(path) : null;
  } catch {
    return null;
  }
}

function sha256Of(file: string): string {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch (error) {
    // An unreadable program is recorded as such: becoming readable (another content) changes the digest.
    return `unreadable: ${(error as NodeJS.ErrnoException).code ?? "error"}`;
  }
}
