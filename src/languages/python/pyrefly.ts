import type { ServerAdapter } from "../../lsp/server-adapter.js";
import { pythonNativeAdapter } from "./python-native.js";

/**
 * pyrefly (`pyrefly lsp`): the bridge watches its files, as for ty, and its diagnostics are
 * pulled although it advertises no `diagnosticProvider`. It pushes them after it "validates the
 * open files", which it skips for an opened file while another change waits in its queue, counting
 * on the later change to validate; under load that later validation sometimes never came (1.5.1:
 * files opened while it indexed the workspace at start-up went unpublished until the deadline,
 * `Timeout`, about once in a hundred `check` runs beside a second test suite). A pull is answered
 * only after the open files are validated for it, or cancelled with RequestCancelled while a
 * change waits, and then sent again: an answer that reflects every document synced before it.
 * It cancels other requests so too (and when its recheck takes the state over: "Request 6 is
 * canceled" to a references request, seen beside a second test suite), so every request is sent
 * again after its own cancel. A change on disk restarts it (`diskChangesNeedRestart`): after
 * `workspace/didChangeWatchedFiles` its next answer can still be the old state's, and nothing it
 * sends says when its recheck took the change in (docs/contributors/contract-notes.md); it starts in well
 * under a second.
 */
export function pyreflyAdapter(): ServerAdapter {
  return { ...pythonNativeAdapter(), name: "pyrefly", diagnosticsByPull: true, cancelsRequestsItself: true, diskChangesNeedRestart: true };
}
