import { standardAdapter } from "../standard.js";
import type { ServerAdapter } from "../../lsp/server-adapter.js";

/**
 * ccls: its background index reports work-done progress under the token "index", which stays
 * open (at "1/2") for as long as the server runs, so a publish made after it began would never
 * settle, and the server would look loading forever. An open file's diagnostics come from its
 * own parse, not from the index: the token is not tracked at all.
 */
export function cclsAdapter(): ServerAdapter {
  // The index also keeps its threads busy long after a file's diagnostics are published.
  return { ...standardAdapter(), name: "ccls", ignoredProgress: new Set(["index"]), busyWithoutPublishing: true };
}
