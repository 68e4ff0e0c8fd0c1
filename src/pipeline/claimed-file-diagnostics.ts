import { mergeServerDiagnostics, type BridgeDiagnostic } from "../contract/diagnostic-order.js";
import { claimingServers, resolveFile, pickWorkspace } from "../sessions/resolve-target.js";
import type { CallContext } from "./call-context.js";
import { fileDiagnostics, type FileDiagnosticsArgs } from "./file-diagnostics.js";

/**
 * The diagnostics of one file from every server that claims it (CONTRACT §4, "Several servers for
 * one file"): with `server`, only that one; without, the per-file pipeline runs once per claiming
 * server (concurrently, each settled by its own rule) and the answers are merged in canonical
 * order, an identical item once. One server failing (dead, crashed, not settled) fails the whole
 * call with that server's error, the first in the workspace's server order: a half answer would
 * read as "the other server found nothing".
 */
export async function claimedFileDiagnostics(context: CallContext, args: FileDiagnosticsArgs): Promise<BridgeDiagnostic[]> {
  const servers = args.server === undefined ? claimantsOf(context, args) : [];
  if (servers.length <= 1) return (await fileDiagnostics(context, args)).diagnostics;
  const settled = await Promise.allSettled(servers.map((server) => fileDiagnostics(context, { ...args, server })));
  const failure = settled.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return mergeServerDiagnostics(settled.map((result) => (result.status === "fulfilled" ? result.value.diagnostics : [])));
}

/** Names of the servers claiming the file; resolution errors are left to the per-file pipeline. */
function claimantsOf(context: CallContext, args: FileDiagnosticsArgs): string[] {
  try {
    const workspace = pickWorkspace(context.config, args.workspace, args.path);
    return claimingServers(context.config, workspace, resolveFile(workspace, args.path)).map((server) => server.name);
  } catch {
    return [];
  }
}
