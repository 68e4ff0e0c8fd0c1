import { statSync } from "node:fs";
import { gitTopLevel } from "../exec/own-command.js";
import { dirname, join, resolve } from "node:path";
import type { ConfigSource } from "./types.js";

export { gitTopLevel };

/** The file names discovery looks for in each folder, in this order. */
const CONFIG_FILE_NAMES = ["bridge.toml", ".lspmcp.toml"] as const;

/**
 * The configuration to use when none is given (CONTRACT §2): the first `bridge.toml` or
 * `.lspmcp.toml` in `cwd` or its parents, up to the git top-level (or `/` outside a work tree);
 * else the embedded default for the git top-level, or `cwd` outside a work tree.
 */
export function discoverConfig(cwd: string): ConfigSource {
  const start = resolve(cwd);
  const top = gitTopLevel(start);
  for (let dir = start; ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(dir, name);
      if (isFile(path)) return { kind: "file", path };
    }
    if (dir === top || dirname(dir) === dir) break;
  }
  return { kind: "default", root: top ?? start };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
