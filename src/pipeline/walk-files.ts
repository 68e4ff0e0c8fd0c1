import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Folders a walk never enters: dependencies and version-control state are not the project's code. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/**
 * Every file under `root` (regular files and symlinks, which the caller resolves), as paths
 * relative to `root` with "/" separators, sorted. It skips `node_modules` and `.git` at any depth
 * and every path for which `excluded` holds, and never follows a symlinked folder, so a link
 * cycle cannot make it loop.
 */
export async function walkFiles(root: string, excluded: (relativePath: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const visit = async (relativeDir: string): Promise<void> => {
    const entries = await readdir(join(root, relativeDir), { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const path = relativeDir === "" ? entry.name : `${relativeDir}/${entry.name}`;
        if (excluded(path)) return;
        if (entry.isDirectory()) {
          if (!SKIPPED_FOLDERS.has(entry.name)) await visit(path);
        } else if (entry.isFile() || entry.isSymbolicLink()) {
          found.push(path);
        }
      }),
    );
  };
  await visit("");
  return found.sort();
}
