import { randomUUID } from "node:crypto";

/**
 * The environment of a supervised server: what it inherits from the bridge, and the two
 * variables that mark every process of its tree for reaping and for the orphan sweep.
 */

/** What every language server inherits from the bridge (CONTRACT §3). */
const ALWAYS_INHERITED = ["PATH", "HOME", "LANG"] as const;

/**
 * The environment for a language server: PATH, HOME and LANG, and the variables its toolchain
 * reads (`inherit`, the server's `inherit_env`), from the bridge's own environment where set;
 * then `extra` (the server's `env`), which wins on a clash: what the configuration says
 * explicitly (a profile's "no network" among it) outranks what the bridge happened to be started
 * with. Nothing else leaks: not the bridge's secrets, not NODE_OPTIONS, not the MCP client's
 * variables.
 */
export function scrubbedEnv(extra: Readonly<Record<string, string>>, inherit: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...ALWAYS_INHERITED, ...inherit]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Marks every process of one session's tree. Descendants inherit it, so a daemon that calls
 * `setsid()` and is re-parented to init is still found through /proc/PID/environ.
 */
export const TOKEN_VAR = "LSPMCP_SESSION_TOKEN";

/**
 * `pid:starttime` of the bridge that owns the tree. The orphan sweep reaps a tree whose owner is
 * no longer alive.
 */
export const OWNER_VAR = "LSPMCP_OWNER";

/** A fresh, unguessable session token. */
export function newSessionToken(): string {
  return `lspmcp-${randomUUID()}`;
}

/** The variables a supervised tree carries, on top of the caller's environment. */
export function treeEnv(token: string, owner: string): Record<string, string> {
  return { [TOKEN_VAR]: token, [OWNER_VAR]: owner };
}
