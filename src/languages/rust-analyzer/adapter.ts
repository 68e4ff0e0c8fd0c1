import { join } from "node:path";
import { FlycheckState } from "./flycheck-state.js";
import { FLYCHECK_SETTLE } from "./settle-flycheck.js";
import { noSuchAction, standardAdapter } from "../standard.js";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";

/**
 * rust-analyzer: diagnostics from its own analysis (pulled, final once it is quiescent) and from
 * `cargo check` runs (flycheck, published), each with its own progress (the "flycheck" strategy;
 * docs/contributors/adapters.md says why the rule is sound). The adapter keeps the session's flycheck state,
 * asks for a run when a wait needs one, and runs the server's worker pool with one thread.
 */
export function rustAnalyzerAdapter(link: ServerLink): ServerAdapter {
  const flycheck = new FlycheckState();
  // Subscribed before any wait, so the state is current when a wait hears the same event.
  link.events.subscribe((event) => {
    if (event.type === "status") flycheck.onStatus(event.quiescent);
    else if (event.type === "progress") flycheck.onProgress(event.token, event.kind);
  });
  // Every publish, whatever its version: the kept set is what a pull's answer is merged with.
  link.onPublish(({ uri, diagnostics }) => {
    flycheck.onPublish(uri, diagnostics);
    link.events.emit({ type: "flycheck-publish", uri, diagnostics });
  });
  return {
    ...standardAdapter(),
    name: "rust-analyzer",
    settle: FLYCHECK_SETTLE,
    // Flycheck runs `cargo check` (or clippy) over the files on disk; its findings carry the
    // tool's name as their source. rust-analyzer's own ("rust-analyzer") read open documents.
    diskOnlySources: new Set(["rustc", "clippy"]),
    // rust-analyzer sends each publish from its worker pool, where it also computes pull answers;
    // with one worker the pool runs its tasks in the order queued, so a pull's answer comes after
    // every publish queued before it and a file's publishes arrive in the order made (with more,
    // a run's clear could arrive after its findings, and a file read clean).
    initializationOptions: (configured, projects) => ({ ...configured, ...linkedProjects(configured, projects), numThreads: 1 }),
    projectsAsFolders: false,
    startingEvents: (uri) => [
      { type: "status", quiescent: flycheck.quiescent },
      { type: "flycheck-history", everBegun: flycheck.everBegun, pending: flycheck.pending },
      { type: "flycheck-publish", uri, diagnostics: flycheck.latestFor(uri) },
    ],
    perform: async (action) => {
      if (action !== "flycheck") throw noSuchAction("rust-analyzer", action);
      // Unless a run asked for has not begun yet: that one covers this request too. The files are
      // checked as they are on disk, which is what the bridge syncs.
      if (flycheck.pending || link.isClosed) return null;
      flycheck.pending = true;
      link.notify("rust-analyzer/runFlycheck", { textDocument: null });
      // Told to every wait of the session, this one too.
      link.events.emit({ type: "flycheck-requested" });
      return null;
    },
  };
}

/**
 * Every crate and cargo workspace found under the workspace, as `linkedProjects` (their
 * Cargo.toml files): rust-analyzer's own discovery looks only at the workspace root and the
 * folders just below it, so a crate deeper down (`tools/a`) would never load and its files never
 * settle. Nothing when none was found, or when the profile links its own.
 */
function linkedProjects(configured: Readonly<Record<string, unknown>>, projects: readonly string[]): { linkedProjects?: string[] } {
  if (projects.length === 0 || "linkedProjects" in configured) return {};
  return { linkedProjects: projects.map((folder) => join(folder, "Cargo.toml")) };
}
