import { existsSync } from "node:fs";
import { dirname, join, relative, isAbsolute } from "node:path";
import { TYPESCRIPT_CONFIG_FILES } from "./root-markers.js";

/**
 * The config tsserver would choose for `file` if it were opened: the nearest tsconfig.json, else
 * jsconfig.json, in its folder or a parent, up to `root` (typescript-language-server gives
 * tsserver the workspace as its project root, where the search stops). Null when there is none.
 * `cache` keeps each folder's answer for one run.
 */
export function nearestConfig(file: string, root: string, cache: Map<string, string | null>): string | null {
  const visited: string[] = [];
  let folder = dirname(file);
  let found: string | null = null;
  for (;;) {
    const known = cache.get(folder);
    if (known !== undefined) {
      found = known;
      break;
    }
    visited.push(folder);
    const config = TYPESCRIPT_CONFIG_FILES.map((name) => join(folder, name)).find((path) => existsSync(path));
    if (config) {
      found = config;
      break;
    }
    const parent = dirname(folder);
    const inside = relative(root, parent);
    if (parent === folder || inside.startsWith("..") || isAbsolute(inside)) break;
    folder = parent;
  }
  for (const path of visited) cache.set(path, found);
  return found;
}
