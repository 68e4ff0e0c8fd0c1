import type { Diagnostic, Position, Range } from "vscode-languageserver-protocol";
import { settleDiagnostics } from "../lsp/features/diagnostics-settle.js";
import type { RequestOptions } from "../lsp/lsp-client.js";
import type { OpenTarget } from "./open-target.js";

/**
 * The settled diagnostics of the target's synced version (the same settle rule as the
 * `diagnostics` tool: never an early, empty answer) that overlap or touch `range`, as the
 * server sent them, so that they can go back to it in a code action request's context. A
 * diagnostic reported on both channels appears once.
 */
export async function diagnosticsInRange(target: OpenTarget, range: Range, options: RequestOptions): Promise<Diagnostic[]> {
  const settled = await settleDiagnostics(target.client, target.synced.document, options);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const diagnostic of [...(settled.pull ?? []), ...(settled.push ?? [])]) {
    const key = JSON.stringify([diagnostic.range, diagnostic.code ?? null, diagnostic.source ?? null, diagnostic.message]);
    if (seen.has(key) || !touches(diagnostic.range, range)) continue;
    seen.add(key);
    out.push(diagnostic);
  }
  return out;
}

function touches(a: Range, b: Range): boolean {
  return before(a.start, b.end) && before(b.start, a.end);
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}
