import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * lspmcp's tool cache: where `lspmcp servers install` puts the servers that no npm or Debian package
 * brings (gopls from the Go module proxy, ruff from PyPI, rust-analyzer built from crates.io), so
 * that nothing of theirs lands in a checkout. `$XDG_CACHE_HOME/lspmcp`, or `~/.cache/lspmcp`.
 * scripts/setup.sh runs that command.
 */
export function toolCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), "lspmcp");
}

/** The prefix by which a profile names a path in the tool cache: `{cache}/go/bin/gopls`. */
export const TOOL_CACHE_PREFIX = "{cache}/";

/** `command` with a leading `{cache}/` replaced by the tool cache folder; anything else as it is. */
export function expandToolCache(command: string, env: NodeJS.ProcessEnv = process.env): string {
  return command.startsWith(TOOL_CACHE_PREFIX) ? join(toolCacheDir(env), command.slice(TOOL_CACHE_PREFIX.length)) : command;
}

/**
 * The folder of the tool cache that a `{cache}/DIR/...` command lives in ("go" for
 * `{cache}/go/bin/gopls`), relative to the cache: the one folder its install owns. Null for a
 * command outside the cache.
 */
export function toolCacheFolder(command: string): string | null {
  if (!command.startsWith(TOOL_CACHE_PREFIX)) return null;
  const folder = command.slice(TOOL_CACHE_PREFIX.length).split("/")[0];
  return folder === undefined || folder === "" || folder === "." || folder === ".." ? null : folder;
}
