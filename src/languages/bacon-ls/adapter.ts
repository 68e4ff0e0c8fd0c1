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
/** The words before cargo's own reason in what a not-checked file is listed with. */
const FAILED_PREFIX = "cargo check failed: ";

/**
 * bacon-ls (its cargo backend): findings come only from `cargo check` runs over the files on
 * disk, each under work-done progress "checking" with a token of its own; a run's publishes are
 * sent before its progress ends "done, …", and a run cancelled by a newer one or superseded ends
 * with a message that says so and publishes nothing. A run in which cargo failed (an unparsable
 * Cargo.toml, a manifest cargo refuses) ends with no message, and bacon-ls then logs why ("cargo
 * exited with exit status: 101: …"): that run is told failed with the line it logs next. It runs one when a document is opened (unless one
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
  // Runs ended with no message, waiting for the line bacon-ls logs next of their failure.
  const failing: (string | number)[] = [];

  link.onLog((line) => {
    for (const token of failing.splice(0)) link.events.emit({ type: "build-run", token, kind: "failed", reason: `${FAILED_PREFIX}${line.trim()}` });
  });
  link.onProgress((token, value) => {
    const { kind, message } = (value ?? {}) as { kind?: unknown; message?: unknown };
    if (kind === "begin") {
      running.add(token);
      pending = Math.max(0, pending - 1);
      link.events.emit({ type: "build-run", token, kind: "begin" });
    } else if (kind === "end" && running.delete(token)) {
      if (typeof message !== "string") failing.push(token);
      else link.events.emit({ type: "build-run", token, kind: message.startsWith(DONE_MESSAGE) ? "done" : "stopped" });
    }
  });
  link.onPublish(({ uri, diagnostics }) => {
    latest.set(uri, diagnostics);
    link.events.emit({ type: "build-run-publish", uri, diagnostics });
  });

  function save(): void {
    const uri = toSave;
    toSave = null;
    if (uri === null || link.isClosed) return;
    pending += 1;
    link.notify("textDocument/didSave", { textDocument: { uri } });
    // Told to every wait of the session: each one synced before it is covered by its run.
    link.events.emit({ type: "build-run-requested" });
  }

  return {
    ...standardAdapter(),
    name: "bacon-ls",
    settle: CARGO_RUN_SETTLE,
    // `cargo check` reads the files on disk, never a document's text.
    diskOnlySources: new Set(["bacon-ls"]),
    whenReady: whenLogged(link, BACON_LS_READY_LOG),
    startingEvents: (uri) => [
      { type: "build-run-history", running: [...running], pending },
      { type: "build-run-publish", uri, diagnostics: latest.get(uri) ?? [] },
    ],
    perform: async (action, _options, uri) => {
      if (action !== "build-run") throw noSuchAction("bacon-ls", action);
      // The waits that ask in this turn (a folder's files synced together) share one run.
      if (toSave === null) setImmediate(save);
      toSave = uri;
      return null;
    },
  };
}
