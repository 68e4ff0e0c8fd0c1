import type { BridgeDiagnostic } from "../../contract/diagnostic-order.js";
import type { ServerAdapter } from "../../lsp/server-adapter.js";

/**
 * A file's diagnostics without the server's notice that it did not check the file at all (its
 * adapter knows the notice: gopls's for a file its build constraints leave out), and why the file
 * was not checked (null: it was). Such a notice is never counted as a finding.
 */
export function splitNotChecked(
  diagnostics: readonly BridgeDiagnostic[],
  adapter: ServerAdapter,
): { diagnostics: BridgeDiagnostic[]; notChecked: string | null } {
  let notChecked: string | null = null;
  const rest = diagnostics.filter((diagnostic) => {
    const reason = adapter.notChecked(diagnostic);
    if (reason === null) return true;
    notChecked = reason;
    return false;
  });
  return { diagnostics: rest, notChecked };
}
