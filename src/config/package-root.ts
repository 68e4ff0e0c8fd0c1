import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The lspmcp package root: the nearest ancestor of this module holding a package.json named
 * "lspmcp". Profiles and their relative paths resolve against it, because the real servers ship as
 * lspmcp's own pinned dependencies. Walking up (rather than counting `..`) keeps this right both
 * from `src/config/` under vitest and from `dist/src/config/` when built. Throws if there is none.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "lspmcp") {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json named lspmcp above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
