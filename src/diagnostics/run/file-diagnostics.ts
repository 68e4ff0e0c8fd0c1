import type { ResolvedServer, ResolvedWorkspace } from "../../config/types.js";
import type { BridgeDiagnostic } from "../../contract/diagnostic-order.js";
import { settleDiagnostics } from "../../lsp/features/diagnostics-settle.js";
import type { ServerAdapter } from "../../lsp/server-adapter.js";
import type { FileTarget, ResolvedTarget } from "../../targets/resolve-target.js";
import { convertDiagnostics } from "./convert-diagnostic.js";
import { openTarget, type OpenTarget } from "../../targets/open-target.js";
import type { CallContext } from "../../targets/call-context.js";
import type { BatchDocuments } from "./file-batches.js";

interface FileDiagnosticsOptions {
  /**
   * The batch whose documents are closed together once all its files are read: `check`'s, so
   * that a large workspace never has more documents open than a batch. Without one the document
   * stays open, so that the tool's repeated call on an unchanged file costs no new sync.
   */
  readonly batch?: BatchDocuments;
  /** Called once the server holds the file's text and before the settle wait. */
  readonly onSynced?: (target: OpenTarget) => void;
  /** The caller has just told the server of every change on disk (see `openTarget`). */
  readonly refreshed?: boolean;
}

/** One file's settled diagnostics, with the text they were computed on. */
export interface FileDiagnostics {
  readonly workspace: ResolvedWorkspace;
  readonly server: ResolvedServer;
  readonly file: FileTarget;
  /** The text the server saw (read from disk at call time). */
  readonly text: string;
  /** Merged push and pull answers, canonically ordered. */
  readonly diagnostics: BridgeDiagnostic[];
  /** Why the server did not check the file at all (its own notice, not a finding); absent when it did. */
  readonly notChecked?: string;
  /**
   * The config file of the project that answered, null when no project includes the file (the
   * compiler's defaults answered, as for an editor); absent where the server does not say.
   */
  readonly project?: string | null;
}

/**
 * The one per-file diagnostics pipeline of the bridge, shared by the `diagnostics` tool and
 * `lspmcp check`: read → ready → sync → settle → convert → merge, on a target resolved once by
 * discovery. It resolves only once
 * the server has settled for the synced version, so an empty answer always means clean; a server
 * that does not settle within `context.deadline` fails with `Timeout`.
 */
export async function fileDiagnostics(context: CallContext, resolved: ResolvedTarget, options: FileDiagnosticsOptions = {}): Promise<FileDiagnostics> {
  const target = await openTarget(context, resolved, { refreshed: options.refreshed ?? false });
  const { client, synced, file } = target;
  try {
    options.onSynced?.(target);
    const answer = await settleDiagnostics(client, synced.document, { deadline: context.deadline, signal: context.signal });
    const converted = convertDiagnostics(file.path, answer.pull, answer.push, synced.lines, client.positionEncoding);
    const { diagnostics, notChecked } = splitNotChecked(converted, client.adapter);
    return {
      workspace: target.workspace,
      server: target.server,
      file,
      text: synced.document.text,
      diagnostics,
      ...(answer.notChecked !== undefined ? { notChecked: answer.notChecked } : notChecked === null ? {} : { notChecked }),
    };
  } catch (error) {
    // A settle wait that saw the connection close because a restart stopped the session: that is
    // SessionDead (stopped), like any request of a client being shut down, not a crash.
    throw client.isStopping ? client.closedError("diagnostics") : error;
  } finally {
    target.release();
    options.batch?.add(client, synced.document.uri);
  }
}

/**
 * A file's diagnostics without the server's notice that it did not check the file at all (its
 * adapter knows the notice: gopls's for a file its build constraints leave out), and why the file
 * was not checked (null: it was). Such a notice is never counted as a finding.
 */
function splitNotChecked(diagnostics: readonly BridgeDiagnostic[], adapter: ServerAdapter): { diagnostics: BridgeDiagnostic[]; notChecked: string | null } {
  let notChecked: string | null = null;
  const rest = diagnostics.filter((diagnostic) => {
    const reason = adapter.notChecked(diagnostic);
    if (reason === null) return true;
    notChecked = reason;
    return false;
  });
  return { diagnostics: rest, notChecked };
}
