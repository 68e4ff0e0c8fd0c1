import { restrictedMode } from "../../config/restricted-mode.js";
import type { AdapterName, ResolvedServer } from "../../config/types.js";
import { checkoutCodeIn } from "./checkout-code.js";
import { ADAPTER_COVERAGE } from "./index.js";

/** Why a server cannot check a file of the workspace (its path relative to the root), or null when it can. */
export type UncheckedFiles = (relativePath: string) => string | null;

/** How an adapter tells, before its server starts, the files that server cannot answer. */
export type AdapterCoverage = (workspaceRoot: string) => Promise<UncheckedFiles | null>;

/**
 * The files of a workspace `server` cannot check, as its adapter sees them from the workspace's
 * layout, and in restricted mode every file when the server would run the checkout's own code
 * there (`checkout-code.ts`); null when it can check every file. The diagnostics runner lists
 * each such file as not checked with the reason, never asks the server of it, and starts no
 * session for none.
 */
export async function uncheckedFiles(
  server: Pick<ResolvedServer, "name" | "adapter" | "checkout_code">,
  workspaceRoot: string,
): Promise<UncheckedFiles | null> {
  const restricted = restrictedMode() ? await checkoutCodeIn(server, workspaceRoot) : null;
  if (restricted !== null) return () => restricted;
  const coverage = (ADAPTER_COVERAGE as Partial<Record<AdapterName, AdapterCoverage>>)[server.adapter];
  return coverage === undefined ? null : coverage(workspaceRoot);
}
