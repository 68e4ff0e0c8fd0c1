import { fdir } from "fdir";

/** Folders a walk never enters: dependencies and version-control state are not the project's code. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/**
 * Every file under `root` (regular files and symlinks, which the caller resolves), as paths
 * relative to `root` with "/" separators, sorted. It skips `node_modules` and `.git` at any depth
 * and every path for which `excluded` holds, and never follows a symlinked folder, so a link
 * cycle cannot make it loop. fdir lists exactly those entries (a FIFO, socket or device is left
 * out) with less CPU than a readdir recursion of our own.
 */
export async function walkFiles(root: string, excluded: (relativePath: string) => boolean): Promise<string[]> {
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
