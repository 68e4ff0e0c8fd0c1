import { join } from "node:path";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { toolchainFor, toolchainLookups, type ToolchainLookups } from "../languages/index.js";

/** The entry as each toolchain's files see it, one object per (entry, workspace, toolchain): a session's files compare equal. */
const variants = new WeakMap<ResolvedServer, Map<string, ResolvedServer>>();

/**
 * The server entry that answers the file at `absolutePath`: `server` itself for a server that runs as configured, or
 * whose project runs the toolchain of the workspace root (the configured pair's session);
 * else the entry with that toolchain (`ResolvedServer.toolchain`), whose session is its own. A
 * toolchain the checkout does not hold is such an entry too, with its refusal: its files are
 * not checked.
 */
export function serverForFile(
  server: ResolvedServer,
  workspace: ResolvedWorkspace,
  absolutePath: string,
  lookups: ToolchainLookups = toolchainLookups(),
): ResolvedServer {
  const chosen = toolchainFor(server, workspace, absolutePath, lookups);
  if (chosen === null) return server;
  if (chosen.refused === null) {
    // Any file at the root: its toolchain is the root's.
    const atRoot = toolchainFor(server, workspace, join(workspace.root, "-"), lookups);
    if (atRoot?.refused === null && atRoot.key === chosen.key) return server;
  }
  let byKey = variants.get(server);
  if (!byKey) variants.set(server, (byKey = new Map()));
  const key = JSON.stringify([workspace.name, workspace.root, chosen.key, chosen.refused]);
  let variant = byKey.get(key);
  if (!variant) byKey.set(key, (variant = { ...server, toolchain: chosen }));
  return variant;
}
