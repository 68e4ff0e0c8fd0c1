import type { Diagnostic } from "vscode-languageserver-protocol";
import type { ChannelDiagnostic } from "../../contract/diagnostic-order.js";
import { severityName } from "../../contract/names.js";
import type { LineIndex, PositionEncoding } from "../../contract/positions.js";

/** An LSP diagnostic in the bridge's shape: code-point positions, names, string-or-null code. */
export function convertDiagnostic(path: string, diagnostic: Diagnostic, lines: LineIndex, encoding: PositionEncoding): ChannelDiagnostic {
  const code = diagnostic.code;
  return {
    path,
    range: lines.rangeFromLsp(diagnostic.range, encoding),
    severity: severityName(diagnostic.severity),
    code: code === undefined || code === null ? null : String(code),
    source: diagnostic.source ?? null,
    // LSP 3.18 allows markup here; the bridge always shows the text.
    message: typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value,
  };
}
