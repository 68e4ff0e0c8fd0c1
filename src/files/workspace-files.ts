import { compileExclude } from "../config/exclude-matcher.js";
import { ownFolderTest } from "../config/own-folders.js";
import type { ResolvedWorkspace } from "../config/types.js";
import { nulFields, runGit } from "../git/run-git.js";
import { fdir } from "fdir";

/**
 * The candidate files of a workspace, relative to its root ("/" separators), sorted: in a git
 * checkout what git tracks plus untracked files that are not ignored, elsewhere a walk that skips
 * `node_modules` and `.git`. The workspace's `exclude` patterns apply in both cases, so a config
 * behaves the same whether or not the tree is a checkout. lspmcp's own folders (the tool cache, the
 * state folder, the runtime folder or `leaseDir`) are never candidates, wherever they are. Not
 * every candidate is a file any more (git lists tracked files deleted since); the caller checks.
 */
export async function workspaceFiles(workspace: ResolvedWorkspace, leaseDir: string | null = null): Promise<string[]> {
  const exclude = compileExclude(workspace.exclude);
  const own = ownFolderTest(workspace.root, leaseDir);
  const excluded = (path: string) => exclude(path) || own(path);
  const fromGit = await listGitFiles(workspace.root);
  if (fromGit !== null) return fromGit.filter((path) => !excluded(path));
  return walkFiles(workspace.root, excluded);
}

/** The candidates inside `folder` (relative to the root; "" is the whole workspace). */
export function filesUnder(files: readonly string[], folder: string): string[] {
  if (folder === "") return [...files];
  return files.filter((path) => path === folder || path.startsWith(`${folder}/`));
}

/**
 * The files git knows in `root`'s checkout: tracked files plus untracked files that are not
 * ignored, as paths relative to `root` with "/" separators, sorted and without duplicates. Resolves
 * to null when `root` is not inside a git work tree (or git is not installed), so the caller walks
 * the tree instead. Tracked files deleted from the work tree are still listed; the caller skips
 * what is not a file.
 */
async function listGitFiles(root: string): Promise<string[] | null> {
  const listing = await runGit(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  if (listing.status !== 0) return null;
  // Unmerged paths appear once per stage; a Set keeps one of each.
  return [...new Set(nulFields(listing.stdout))].sort();
}

/** Folders a walk never enters: dependencies and version-control state are not the project's code. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/**
 * Every file under `root` (regular files and symlinks, which the caller resolves), as paths
 * relative to `root` with "/" separators, sorted. It skips `node_modules` and `.git` at any depth
 * and every path for which `excluded` holds, and never follows a symlinked folder, so a link
 * cycle cannot make it loop. fdir lists exactly those entries (a FIFO, socket or device is left
 * out) with less CPU than a readdir recursion of our own.
 */
async function walkFiles(root: string, excluded: (relativePath: string) => boolean): Promise<string[]> {
  const base = root.endsWith("/") ? root.length : root.length + 1;
  const found = await new fdir()
    .withRelativePaths()
    // fdir hands folders over as absolute paths with a trailing "/".
    .exclude((name, path) => SKIPPED_FOLDERS.has(name) || excluded(path.slice(base, -1)))
    .filter((path) => !excluded(path))
    .crawl(root)
    .withPromise();
  return found.sort();
}
