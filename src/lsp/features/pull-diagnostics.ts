import { DocumentDiagnosticRequest, type Diagnostic } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { RequestOptions } from "../request-options.js";
import type { ServerLink } from "../server-adapter.js";

/**
 * One `textDocument/diagnostic` of a file, open or closed, for a server whose pulls are complete
 * on their own (its project model's `answersUnopened`): its items are the file's diagnostics in the server's
 * current program. An "unchanged" report cannot come back, since no previous result id is sent.
 */
export async function requestPullDiagnostics(link: Pick<ServerLink, "request">, uri: string, options: RequestOptions): Promise<Diagnostic[]> {
  const report = await link.request(DocumentDiagnosticRequest.type, { textDocument: { uri } }, options);
  if (report.kind !== "full") {
    throw new BridgeError("Internal", `the server answered an unasked-for "${report.kind}" diagnostics report for ${uri}`, { uri });
  }
  return report.items;
}
