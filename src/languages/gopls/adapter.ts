import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { ProtocolRequestType0 } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import { noSuchAction, standardAdapter } from "../standard.js";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";

/** A request no server implements, whose answer (an error) shows the server has read everything before it. */
const BARRIER = new ProtocolRequestType0<null, never, never, void>("$/lspmcp/barrier");

/**
 * gopls: a package's diagnostics depend on the packages it imports, so a publish for an unchanged
 * file may be older than another file's change just synced. Before a wait settles, every sync the
 * session sent is covered by a barrier (the "barrier" strategy): a request sent after it and
 * answered. gopls handles its messages in order, so by its answer it has taken the syncs in and
 * begun the work-done progress of their diagnosis, which the push rule then awaits.
 *
 * A file that its build constraints leave out of every package (`//go:build icu`, a file `go
 * build` and `go vet` never look at either) gets only gopls's "No packages found for open file …"
 * (source "go list"): the file was not checked, which is no finding.
 */
export function goplsAdapter(link: ServerLink): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "gopls",
    settle: "barrier",
    notChecked: (diagnostic) =>
      diagnostic.source === "go list" && diagnostic.message.startsWith("No packages found for open file")
        ? "no package of the build includes it (its build constraints leave it out)"
        : null,
    createdNotChecked: (path) =>
      path.endsWith(".go") && !holdsGoFile(dirname(path))
        ? "a new package: gopls reads packages from the disk, and this folder holds no Go file there yet"
        : null,
    perform: async (action, options) => {
      if (action !== "barrier") throw noSuchAction("gopls", action);
      try {
        await link.request(BARRIER, undefined, options);
      } catch (error) {
        // LSP says an unknown `$/` request is answered MethodNotFound: any answer, an error
        // included, is the barrier; only a closed connection or the deadline fails it.
        const answered = error instanceof BridgeError && (error.code === "NotSupported" || error.details?.lsp_error_code !== undefined);
        if (!answered) throw error;
      }
      return { type: "barrier-answer" };
    },
  };
}

/**
 * Whether `folder` holds a Go file on disk. gopls (with `diagnosticsDelay` 0) diagnoses the
 * packages it knows when a document opens, and loads an open file that none of them holds only
 * afterwards, for its orphaned-file check: a file of a package the disk does not have yet is
 * published with no diagnostics and not checked again, with no notice.
 */
function holdsGoFile(folder: string): boolean {
  try {
    return readdirSync(folder).some((name) => name.endsWith(".go"));
  } catch {
    // No such folder (or none that can be read): no package gopls could know there.
    return false;
  }
}
