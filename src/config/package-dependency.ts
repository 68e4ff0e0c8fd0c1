import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * The folder of package `name` as Node finds it from `fromDir`: `fromDir/node_modules/name`, then
 * each ancestor's, links followed to the real folder; null when there is none. Where npm or yarn
 * hoisted it (lspmcp installed as a dependency of another project), it is in a `node_modules`
 * above lspmcp's own; with pnpm, it is a link beside lspmcp in the `.pnpm` store. An npm alias
 * (`typescript-7` for `npm:typescript@7.0.2`) is found by its alias name, the folder's name.
 *
 * The folders are searched rather than `require.resolve`d, because a package's `exports` may hide
 * its package.json and its bin scripts; a folder without a package.json is passed over, as Node
 * passes it over.
 */
export function dependencyFolder(name: string, fromDir: string): string | null {
  const folders = createRequire(join(fromDir, "package.json")).resolve.paths(name) ?? [];
  for (const folder of folders) {
    const dir = join(folder, name);
    if (existsSync(join(dir, "package.json"))) return realpathSync(dir);
  }
  return null;
}

/** A package's manifest as far as it names things; `{}` when unreadable. */
function manifest(dir: string): { name?: unknown; bin?: unknown; dependencies?: unknown } {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** The commands a package's `bin` declares, name → path relative to its folder. */
export function packageBins(dir: string): Record<string, string> {
  const { name, bin } = manifest(dir);
  if (typeof bin === "string" && typeof name === "string") return { [name.replace(/^@[^/]+\//, "")]: bin };
  if (typeof bin !== "object" || bin === null) return {};
  return Object.fromEntries(Object.entries(bin).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** Where a path under lspmcp's `node_modules` really is, or why it is nowhere. */
type DependencyPath = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/**
 * Finds what a profile's `node_modules/...` path names (relative to the lspmcp package root
 * `packageRoot`) where Node finds lspmcp's dependencies, whatever the layout: `node_modules/PKG/REST`
 * is REST in the folder of PKG; `node_modules/.bin/NAME` is the script that one of lspmcp's
 * dependencies declares as its command NAME (a `.bin` folder of links is where npm puts it, not
 * where pnpm or a hoisting install does). Null for any other path.
 */
export function locateDependencyPath(relative: string, packageRoot: string): DependencyPath | null {
  const parts = relative.split("/");
  if (parts[0] !== "node_modules" || parts.length < 3) return null;
  if (parts[1] === ".bin") {
    const bin = parts.slice(2).join("/");
    const dependencies = Object.keys(asRecord(manifest(packageRoot).dependencies));
    for (const name of dependencies) {
      const dir = dependencyFolder(name, packageRoot);
      const script = dir === null ? undefined : packageBins(dir)[bin];
      if (dir !== null && script !== undefined) return { ok: true, path: join(dir, script) };
    }
    return { ok: false, message: `none of lspmcp's dependencies that Node finds from ${packageRoot} declares the command ${bin}` };
  }
  const scoped = parts[1]!.startsWith("@");
  const name = parts.slice(1, scoped ? 3 : 2).join("/");
  const rest = parts.slice(scoped ? 3 : 2);
  const dir = dependencyFolder(name, packageRoot);
  if (dir === null) return { ok: false, message: `lspmcp's dependency ${name} is not where Node looks from ${packageRoot}` };
  return { ok: true, path: join(dir, ...rest) };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
