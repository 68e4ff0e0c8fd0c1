import type { Diagnostic } from "vscode-languageserver-protocol";
import { type BridgeDiagnostic, type ChannelDiagnostic, mergeDiagnostics } from "../../contract/diagnostic-order.js";
import { severityName } from "../../contract/names.js";
import type { LineIndex, PositionEncoding } from "../../contract/positions.js";

/**
 * A file's diagnostics as a server gave them (its pulled set and its pushed one, either null when
 * it has none) in the bridge's shape, merged into one canonical list: the one conversion of every
 * answer of the runner, from a settled document or from a project model's pull.
 */
export function convertDiagnostics(
  path: string,
  pull: readonly Diagnostic[] | null,
  push: readonly Diagnostic[] | null,
  lines: LineIndex,
  encoding: PositionEncoding,
): BridgeDiagnostic[] {
  const convert = (list: readonly Diagnostic[] | null) =>
    list === null ? null : list.map((diagnostic) => convertDiagnostic(path, diagnostic, lines, encoding));
  return mergeDiagnostics(convert(pull), convert(push));
}

/** An LSP diagnostic in the bridge's shape: code-point positions, names, string-or-null code. */
function convertDiagnostic(path: string, diagnostic: Diagnostic, lines: LineIndex, encoding: PositionEncoding): ChannelDiagnostic {
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
