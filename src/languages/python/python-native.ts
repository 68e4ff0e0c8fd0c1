import type { ServerAdapter } from "../../lsp/server-adapter.js";
import { standardAdapter } from "../standard.js";

/**
 * The native Python type checkers, ty (`ty server`) and pyrefly (`pyrefly lsp`). Neither watches
 * the disk itself: each relies on the client's file watching (ty says so in its log when a client
 * offers none), and without it a file the bridge never opened stays as the server first read it,
 * so an importer of a file changed on disk reads clean against its old text. So the bridge
 * watches their files: it declares client-side watching and tells the server of every change it
 * finds before the server answers (src/disk-sync/), as for TypeScript. ty's diagnostics
 * are pulls, settled by the standard rule (ty cancels a pull that a change overtook and asks for
 * it again, which the rule sends again), and starts its work in flight over at every open and
 * close of a document, so a many-file run changes none while a batch is answered; pyrefly's
 * adapter starts from this one (`pyrefly.ts`).
 */
export function pythonNativeAdapter(): ServerAdapter {
  return { ...standardAdapter(), name: "python-native", filesWatchedBy: "bridge", watchedFiles: PYTHON_PROJECT_FILES, documentChangesCancelWork: true };
}

/** What a Python type check can depend on: sources, stubs, and the files that configure it. */
const PYTHON_PROJECT_FILES = /(?:\.pyi?|(?:^|\/)(?:pyproject\.toml|ty\.toml|pyrefly\.toml|setup\.cfg|setup\.py))$/;
