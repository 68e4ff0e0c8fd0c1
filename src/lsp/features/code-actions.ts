import { CodeAction, CodeActionRequest, Command, type Diagnostic, type Range } from "vscode-languageserver-protocol";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import { requireCapability } from "./capability.js";

/** Capability and method of `textDocument/codeAction`, for gating and errors. */
export const CODE_ACTIONS_FEATURE = { capability: "codeActionProvider", method: CodeActionRequest.method } as const;

/**
 * A code action reduced to what may be listed: never its edit, command or data. `diagnostics`
 * are the ones it says it fixes.
 */
export interface CodeActionSummary {
  readonly title: string;
  readonly kind: string | null;
  readonly isPreferred: boolean;
  readonly disabledReason: string | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly hasEdit: boolean;
  readonly hasCommand: boolean;
}

/**
 * The code actions the server offers for `range`, given the diagnostics there. Only listed: the
 * payloads are dropped here, and no `codeAction/resolve` is ever sent (so an action whose edit a
 * server fills in only on resolve shows `hasEdit: false`). `only` passes the kind prefixes on.
 */
export async function requestCodeActions(
  client: LspClient,
  uri: string,
  range: Range,
  diagnostics: readonly Diagnostic[],
  only: readonly string[] | undefined,
  options: RequestOptions,
): Promise<CodeActionSummary[]> {
  requireCapability(client, "codeActionProvider", CodeActionRequest.method);
  const context = { diagnostics: [...diagnostics], ...(only ? { only: [...only] } : {}) };
  const answer = await client.request(CodeActionRequest.type, { textDocument: { uri }, range, context }, options);
  return (answer ?? []).flatMap(summarize);
}

function summarize(entry: Command | CodeAction): CodeActionSummary[] {
  if (CodeAction.is(entry)) {
    return [
      {
        title: entry.title,
        kind: entry.kind ?? null,
        isPreferred: entry.isPreferred === true,
        disabledReason: entry.disabled?.reason ?? null,
        diagnostics: entry.diagnostics ?? [],
        hasEdit: entry.edit !== undefined,
        hasCommand: entry.command !== undefined,
      },
    ];
  }
  if (Command.is(entry)) {
    return [{ title: entry.title, kind: null, isPreferred: false, disabledReason: null, diagnostics: [], hasEdit: false, hasCommand: true }];
  }
  return [];
}
