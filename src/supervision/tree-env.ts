import { randomUUID } from "node:crypto";

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
