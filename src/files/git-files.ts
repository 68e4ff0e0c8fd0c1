import { nulFields, runGit } from "../git/run-git.js";

/**
 * The files git knows in `root`'s checkout: tracked files plus untracked files that are not
 * ignored, as paths relative to `root` with "/" separators, sorted and without duplicates. Resolves
 * to null when `root` is not inside a git work tree (or git is not installed), so the caller walks
 * the tree instead. Tracked files deleted from the work tree are still listed; the caller skips
 * what is not a file.
 */
export async function listGitFiles(root: string): Promise<string[] | null> {
  const listing = await runGit(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  if (listing.status !== 0) return null;
  // Unmerged paths appear once per stage; a Set keeps one of each.
  return [...new Set(nulFields(listing.stdout))].sort();
}
