import type { DiagnosticSeverity, SymbolKind } from "vscode-languageserver-protocol";

/** Severity names, most severe first (CONTRACT §5). Index + 1 is the LSP number. */
export const SEVERITY_NAMES = ["error", "warning", "information", "hint"] as const;

/** A diagnostic severity as the bridge shows it. */
export type SeverityName = (typeof SEVERITY_NAMES)[number];

/**
 * The name of an LSP severity. A missing severity is "error": LSP leaves its interpretation to the
 * client, and treating it as the most severe never hides a problem from a CI gate. A number outside
 * 1..4 (a misbehaving server) is treated the same way, for the same reason.
 */
export function severityName(s: DiagnosticSeverity | undefined): SeverityName {
  return (s !== undefined && SEVERITY_NAMES[s - 1]) || "error";
}

/**
 * The rank of a severity name: 1 for error up to 4 for hint (the LSP numbers), so a lower rank is
 * more severe. "At or above threshold T" means `severityRank(x) <= severityRank(T)`.
 */
export function severityRank(name: SeverityName): number {
  return SEVERITY_NAMES.indexOf(name) + 1;
}

/** Whether `value` is one of `SEVERITY_NAMES`. */
export function isSeverityName(value: unknown): value is SeverityName {
  return typeof value === "string" && (SEVERITY_NAMES as readonly string[]).includes(value);
}

// Index + 1 is the LSP SymbolKind number (File = 1 ... TypeParameter = 26).
const SYMBOL_KIND_NAMES = [
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum_member",
  "struct",
  "event",
  "operator",
  "type_parameter",
] as const;

/**
 * The lower snake_case name of an LSP SymbolKind ("class", "enum_member", "type_parameter").
 * Numbers LSP does not define (newer or misbehaving servers) are "unknown", never an error.
 */
export function symbolKindName(k: SymbolKind): string {
  return (Number.isInteger(k) && SYMBOL_KIND_NAMES[k - 1]) || "unknown";
}
