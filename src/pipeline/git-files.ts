import { execFile } from "node:child_process";

/** Enough for the file list of a very large monorepo; the list is NUL-separated paths. */
const MAX_LISTING_BYTES = 256 * 1024 * 1024;

/**
 * The files git knows in `root`'s checkout: tracked files plus untracked files that are not
 * ignored, as paths relative to `root` with "/" separators, sorted and without duplicates. Resolves
 * to null when `root` is not inside a git work tree (or git is not installed), so the caller walks
 * the tree instead. Tracked files deleted from the work tree are still listed; the caller skips
 * what is not a file.
 */
export function listGitFiles(root: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      { cwd: root, maxBuffer: MAX_LISTING_BYTES, encoding: "utf8" },
      (error, stdout) => {
        if (error) return resolve(null);
        // Unmerged paths appear once per stage; a Set keeps one of each.
        resolve([...new Set(stdout.split("\0").filter((path) => path !== ""))].sort());
      },
    );
  });
}
