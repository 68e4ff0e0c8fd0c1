import { realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { runtimeFolder } from "./runtime-folder.js";
import { stateFolder } from "./state-folder.js";
import { toolCacheDir } from "./tool-cache.js";

/**
 * lspmcp's own folders: the tool cache (the servers it installed, their builds, the workspaces'
 * cargo targets), the state folder and the runtime folder (`leaseDir` when a configuration moves
 * it). Each as given and, when it exists, with symlinks resolved.
 */
function ownFolders(leaseDir: string | null = null, env: NodeJS.ProcessEnv = process.env): string[] {
  const folders = [toolCacheDir(env), stateFolder(env), runtimeFolder(leaseDir, env)];
  return [...new Set(folders.flatMap((folder) => [folder, realPathOrNull(folder)]).filter((folder): folder is string => folder !== null))];
}

/**
 * Whether a path relative to `root` ("/" separators) lies in one of lspmcp's own folders inside
 * it. They are never a project's sources, wherever they are: a CI job that keeps its caches under
 * the project folder (GitLab's `.cache/lspmcp`) must not have the installed servers' own files
 * detected as the project's languages, nor checked.
 */
export function ownFolderTest(root: string, leaseDir: string | null = null, env: NodeJS.ProcessEnv = process.env): (relativePath: string) => boolean {
  const roots = [...new Set([root, realPathOrNull(root)].filter((path): path is string => path !== null))];
  const inside = new Set<string>();
  for (const folder of ownFolders(leaseDir, env)) {
    for (const base of roots) {
      const path = relative(base, folder);
      if (path !== "" && path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path)) inside.add(path.split(sep).join("/"));
    }
  }
  if (inside.size === 0) return () => false;
  const prefixes = [...inside];
  return (relativePath) => prefixes.some((prefix) => relativePath === prefix || relativePath.startsWith(`${prefix}/`));
}

function realPathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
