import { CARGO_RUN_SETTLE } from "./settle-cargo-run.js";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { whenLogged } from "../ready-log.js";
import { noSuchAction, standardAdapter } from "../standard.js";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";

/**
 * What bacon-ls logs once its cargo backend exists: a didOpen or didSave before then is dropped
 * (no backend to run anything), so no document is sent before it.
 */
export const BACON_LS_READY_LOG = "lsp server initialized with backend: Cargo";

/** How bacon-ls ends the progress of a run whose findings it published ("done, errors: 3, warnings: 3"). */
const DONE_MESSAGE = "done";

/**
 * bacon-ls (its cargo backend): findings come only from `cargo check` runs over the files on
 * disk, each under work-done progress "checking" with a token of its own; a run's publishes are
 * sent before its progress ends "done, …", and a run cancelled by a newer one, superseded, or
 * failed ends otherwise and publishes nothing. It runs one when a document is opened (unless one
 * began within the last second), saved, or at start, and publishes a file only when its set
 * changes (none published: none found). So the adapter keeps each file's last set, tells every
 * wait of the runs (the "cargo-run" strategy, `settle-cargo-run.ts`), and asks for a run with a
 * didSave of the document, which is on disk as synced: one didSave for every wait that asks in
 * the same turn.
 */
export function baconLsAdapter(link: ServerLink): ServerAdapter {
  const running = new Set<string | number>();
  const latest = new Map<string, readonly Diagnostic[]>();
  // didSaves sent whose runs have not begun yet (each begins one); the document of one to send this turn.
  let pending = 0;
  let toSave: string | null = null;

  link.onProgress((token, value) => {
    const { kind, message } = (value ?? {}) as { kind?: unknown; message?: unknown };
    if (kind === "begin") {
      running.add(token);
      pending = Math.max(0, pending - 1);
      link.events.emit({ type: "cargo-run", token, kind: "begin" });
    } else if (kind === "end" && running.delete(token)) {
      const done = typeof message === "string" && message.startsWith(DONE_MESSAGE);
      link.events.emit({ type: "cargo-run", token, kind: done ? "done" : "stopped" });
    }
  });
  link.onPublish(({ uri, diagnostics }) => {
    latest.set(uri, diagnostics);
    link.events.emit({ type: "cargo-run-publish", uri, diagnostics });
  });

  function save(): void {
    const uri = toSave;
    toSave = null;
    if (uri === null || link.isClosed) return;
    pending += 1;
    link.notify("textDocument/didSave", { textDocument: { uri } });
    // Told to every wait of the session: each one synced before it is covered by its run.
    link.events.emit({ type: "cargo-run-requested" });
  }

  return {
    ...standardAdapter(),
    name: "bacon-ls",
    settle: CARGO_RUN_SETTLE,
    // `cargo check` reads the files on disk, never a document's text.
    diskOnlySources: new Set(["bacon-ls"]),
    whenReady: whenLogged(link, BACON_LS_READY_LOG),
    startingEvents: (uri) => [
      { type: "cargo-run-history", running: [...running], pending },
      { type: "cargo-run-publish", uri, diagnostics: latest.get(uri) ?? [] },
    ],
    perform: async (action, _options, uri) => {
      if (action !== "cargo-run") throw noSuchAction("bacon-ls", action);
      // The waits that ask in this turn (a folder's files synced together) share one run.
      if (toSave === null) setImmediate(save);
      toSave = uri;
      return null;
    },
  };
}
