import { existsSync } from "node:fs";
import { join } from "node:path";
import { toolCacheDir } from "../../src/config/tool-cache.js";

/** A path in lspmcp's tool cache, where `lspmcp servers install` (run by scripts/setup.sh) puts gopls, ruff and rust-analyzer. */
export function cachedTool(relative: string): string {
  return join(toolCacheDir(), relative);
}

/**
 * Fails loudly when setup has not installed a cached tool: CI's `npm test` runs setup first. Call
 * it with a literal path: `npm test` (scripts/run-tests.ts) reads these calls, in a test file and
 * the helpers it imports, to run the file after the tool's build when a first run is building it.
 */
export function requireCachedTool(relative: string): string {
  const path = cachedTool(relative);
  if (!existsSync(path)) throw new Error(`${path} is not installed; run scripts/setup.sh (npm test does)`);
  return path;
}
