import { BridgeError } from "../../contract/errors.js";
import type { ServerAdapter } from "./server-adapter.js";

/**
 * The adapter of a server that needs nothing beyond the LSP spec: diagnostics settle by push or
 * pull, it takes documents as soon as `initialized` is sent, its options are the profile's. The
 * other adapters start from it and say only how they differ.
 */
export function standardAdapter(): ServerAdapter {
  return {
    name: "standard",
    settle: "standard",
    ignoredProgress: new Set(),
    filesWatchedBy: "server",
    answersManyFiles: false,
    initializationOptions: (configured) => ({ ...configured }),
    whenReady: async () => {},
    startingEvents: () => [],
    // The standard rule decides neither action; being asked is a bug, told as a failed wait.
    perform: async (action) => {
      throw new BridgeError("NotSupported", `the standard adapter carries out no ${action}`, { action });
    },
  };
}
