import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { dependencyFolder } from "../../config/package-dependency.js";

/**
 * lspmcp's own `typescript` dependency (5.9.3: the JavaScript API a server of lspmcp's needs as a
 * peer), which is not a compiler any workspace chose: `root` is lspmcp's package root, `typescript`
 * the real folder Node finds that dependency in from there (null when there is none).
 */
export interface LspmcpTypescript {
  readonly root: string;
  readonly typescript: string | null;
}

/** lspmcp's own `typescript` dependency, as Node finds it from the package root `root`. */
export function lspmcpTypescript(root: string): LspmcpTypescript {
  return { root: realpathSync(root), typescript: dependencyFolder("typescript", root) };
}

/**
 * Whether `holder/node_modules/typescript`, found from the project folder `from`, is lspmcp's own
 * dependency rather than the project's: the same folder, in a `node_modules` that lspmcp's own
 * lookup walks (lspmcp's package lies inside `holder`: its checkout, or a project whose install
 * hoisted lspmcp's dependency to its top level), and no package.json from `from` up to `holder` (lspmcp's aside) lists `typescript` — when one does, the install shares the one
 * folder between the project and lspmcp, and it is the project's.
 */
export function isLspmcpTypescript(holder: string, from: string, lspmcp: LspmcpTypescript): boolean {
  if (lspmcp.typescript === null || realpathSync(join(holder, "node_modules", "typescript")) !== lspmcp.typescript) return false;
  const realHolder = realpathSync(holder);
  if (lspmcp.root !== realHolder && !lspmcp.root.startsWith(realHolder.endsWith(sep) ? realHolder : realHolder + sep)) return false;
  for (let dir = from; ; dir = dirname(dir)) {
    if (listsTypescript(join(dir, "package.json"))) return false;
    if (dir === holder || dirname(dir) === dir) return true;
  }
}

/** Whether the package.json at `file` (not lspmcp's own) lists `typescript` among its dependencies of any kind. */
function listsTypescript(file: string): boolean {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
  if (typeof manifest !== "object" || manifest === null || (manifest as { name?: unknown }).name === "lspmcp") return false;
  return ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"].some((field) => {
    const listed = (manifest as Record<string, unknown>)[field];
    return typeof listed === "object" && listed !== null && Object.hasOwn(listed, "typescript");
  });
}
