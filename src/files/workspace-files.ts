import { compileExclude } from "../config/exclude-matcher.js";
import { ownFolderTest } from "../config/own-folders.js";
import type { ResolvedWorkspace } from "../config/types.js";
import { listGitFiles } from "./git-files.js";
import { walkFiles } from "./walk-files.js";

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
