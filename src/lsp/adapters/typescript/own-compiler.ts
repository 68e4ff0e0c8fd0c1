import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkoutTop } from "../../../config/checkout-code.js";
import { detectLanguages } from "../../../config/detect-languages.js";
import { packageRoot } from "../../../config/package-root.js";
import { findProjectTypescript } from "./compiler.js";
import { lspmcpTypescript } from "./lspmcp-typescript.js";

/**
 * A `typescript` package of the workspace's own, which the profile would answer some of its files
 * with: the one Node finds from the root, or one beside a package's package.json below it; null
 * when every file would be answered by the pinned compiler. Restricted mode runs none of them.
 */
export async function ownTypescriptIn(root: string): Promise<string | null> {
  const above = findProjectTypescript(root, checkoutTop({ root }), lspmcpTypescript(packageRoot()));
  if (above !== null) return above;
  const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: new Set(["package.json"]) });
  for (const manifest of collected) {
    const packageDir = join(root, dirname(manifest), "node_modules", "typescript");
    if (existsSync(join(packageDir, "package.json"))) return packageDir;
  }
  return null;
}
