import type { BridgeDiagnostic } from "../contract/diagnostic-order.js";

/**
 * A server's own word, among a file's diagnostics, that it did not check the file at all. It is
 * no finding about the code: the file is reported as not checked, and the notice is never counted.
 * gopls says so of a file that its build constraints leave out of every package (`//go:build icu`,
 * a file `go build` and `go vet` never look at either): "No packages found for open file …".
 */
const NOTICES: readonly { readonly source: string; readonly prefix: string; readonly reason: string }[] = [
  {
    source: "go list",
    prefix: "No packages found for open file",
    reason: "no package of the build includes it (its build constraints leave it out)",
  },
];

/** The file's diagnostics without such a notice, and why the file was not checked (null: it was). */
export function splitNotChecked(diagnostics: readonly BridgeDiagnostic[]): { diagnostics: BridgeDiagnostic[]; notChecked: string | null } {
  let notChecked: string | null = null;
  const rest = diagnostics.filter((diagnostic) => {
    const notice = NOTICES.find((candidate) => diagnostic.source === candidate.source && diagnostic.message.startsWith(candidate.prefix));
    if (notice === undefined) return true;
    notChecked = notice.reason;
    return false;
  });
  return { diagnostics: rest, notChecked };
}
