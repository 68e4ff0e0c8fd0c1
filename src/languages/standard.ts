import { BridgeError } from "../contract/errors.js";
import type { ServerAdapter, SettleAction } from "../lsp/server-adapter.js";

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
    watchedFiles: NOTHING,
    diagnosticsByPull: false,
    cancelsRequestsItself: false,
    documentChangesCancelWork: false,
    busyWithoutPublishing: false,
    diskChangesNeedRestart: false,
    diskOnlySources: new Set(),
    projectsAsFolders: true,
    initializationOptions: (configured) => ({ ...configured }),
    whenReady: async () => {},
    startingEvents: () => [],
    notChecked: () => null,
    createdNotChecked: () => null,
    projectModel: null,
    perform: async (action) => {
      throw noSuchAction("standard", action);
    },
  };
}

/** Matches no path: the files a server that watches its own is told of by the bridge. */
const NOTHING = /(?!)/;

/**
 * The error of an adapter asked for a settle action its strategy never decides: a bug, told as
 * the failed wait it causes rather than a hang until the deadline.
 */
export function noSuchAction(adapter: string, action: SettleAction): BridgeError {
  return new BridgeError("NotSupported", `the ${adapter} adapter carries out no ${action}`, { adapter, action });
}
