import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../config/package-root.js";

/** Where `npm run build` (scripts/bundle.mjs) writes the digest of the files it bundled. */
function buildIdFile(): string {
  return join(packageRoot(), "dist", "lspmcp", "build-id.json");
}

/** The build the install holds now: its digest, or null when it has none (not built, or mid-upgrade). */
export function installedBuild(): string | null {
  try {
    const { build } = JSON.parse(readFileSync(buildIdFile(), "utf8")) as { build?: unknown };
    return typeof build === "string" && /^[0-9a-f]{64}$/.test(build) ? build : null;
  } catch {
    return null;
  }
}

let own: string | undefined;

/**
 * The build this process runs: the install's build id as read the first time it is asked, which
 * lspmcp does at start (src/cli/main.ts), before an upgrade could rewrite it. A lease carries it,
 * so only a `serve` of the very same build attaches to a shared server. "unbuilt" when the install
 * has none (a run from source): it then matches only other unbuilt runs.
 */
export function buildIdentity(): string {
  own ??= installedBuild() ?? "unbuilt";
  return own;
}
