import { existsSync } from "node:fs";
import { join } from "node:path";
import { toolCacheDir } from "../../src/config/tool-cache.js";

/**
 * The tool cache's location for a process a test starts, when XDG_CACHE_HOME moves it away from
 * ~/.cache (a CI cache, a fresh clone measured with empty caches): a bridge started without it
 * would look for its servers where setup did not put them.
 */
export function cacheEnv(): Record<string, string> {
  return process.env.XDG_CACHE_HOME === undefined ? {} : { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
}

/** The environment a test's bridge starts with, and nothing of the test's own: PATH, HOME and the tool cache's location. */
export function bridgeEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...cacheEnv() };
}

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
