import { fileURLToPath } from "node:url";
import { DiagnosticSeverity, DiagnosticTag, ExecuteCommandRequest, type Diagnostic } from "vscode-languageserver-protocol";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";

/** typescript-language-server's passthrough to tsserver (it lists it in executeCommandProvider). */
/** typescript-language-server's passthrough to its tsserver, which only it advertises. */
export const TSSERVER_REQUEST = "typescript.tsserverRequest";
const SYNC_COMMANDS = ["syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"] as const;

interface TsserverDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
  reportsUnnecessary?: boolean;
  reportsDeprecated?: boolean;
}

/**
 * Whether the server is typescript-language-server. Its push diagnostics are published once per
 * diagnostic kind (syntax, semantic, suggestion), debounced and without a version, so no push
 * can be known to be the last one; its tsserver passthrough answers all three kinds at once.
 */
export function supportsTsserverDiagnostics(link: ServerLink): boolean {
  const provider = link.capabilities.executeCommandProvider;
  return provider?.commands.includes(TSSERVER_REQUEST) ?? false;
}

/**
 * The diagnostics tsserver computes for the current text of `uri`, as LSP diagnostics converted
 * the way typescript-language-server converts its pushed ones. Answered only once tsserver has
 * checked the file, so it is a true pull: complete for the version that was synced.
 */
export async function requestTsserverDiagnostics(link: ServerLink, uri: string, options: RequestOptions): Promise<Diagnostic[]> {
  return requestTsserverFileDiagnostics(link, fileURLToPath(uri), options);
}

/**
 * The same for a file by path, open or not: tsserver answers for a closed file of a loaded
 * project from the text it read from disk (the project-level path, src/diagnostics/run/project-run.ts).
 * `project` (a configured project's tsconfig) names the program that answers: without it tsserver
 * answers a closed file from the first loaded project holding it, which may be another package's
 * that imports the file, under that package's options.
 */
export async function requestTsserverFileDiagnostics(link: ServerLink, file: string, options: RequestOptions, project?: string): Promise<Diagnostic[]> {
  const args = { file, includeLinePosition: false, ...(project === undefined ? {} : { projectFileName: project }) };
  const answers = await Promise.all(
    SYNC_COMMANDS.map((command) => link.request(ExecuteCommandRequest.type, { command: TSSERVER_REQUEST, arguments: [command, args] }, options)),
  );
  return answers.flatMap((answer) => ((answer as { body?: TsserverDiagnostic[] } | null)?.body ?? []).map(toLspDiagnostic));
}

function toLspDiagnostic(diagnostic: TsserverDiagnostic): Diagnostic {
  const tags: DiagnosticTag[] = [];
  if (diagnostic.reportsUnnecessary) tags.push(DiagnosticTag.Unnecessary);
  if (diagnostic.reportsDeprecated) tags.push(DiagnosticTag.Deprecated);
  return {
    // tsserver counts lines and offsets from 1, in UTF-16 units, as LSP does from 0.
    range: {
      start: { line: diagnostic.start.line - 1, character: diagnostic.start.offset - 1 },
      end: { line: diagnostic.end.line - 1, character: diagnostic.end.offset - 1 },
    },
    message: diagnostic.text,
    severity: severityOf(diagnostic.category),
    ...(diagnostic.code === undefined ? {} : { code: diagnostic.code }),
    source: diagnostic.source ?? "typescript",
    tags,
  };
}

function severityOf(category: string | undefined): DiagnosticSeverity {
  switch (category) {
    case "warning":
      return DiagnosticSeverity.Warning;
    case "suggestion":
      return DiagnosticSeverity.Hint;
    case "message":
      return DiagnosticSeverity.Information;
    default:
      return DiagnosticSeverity.Error;
  }
}
