import { DocumentDiagnosticRequest, type Diagnostic } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { OpenDocument } from "../document-sync.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import type { PublishedDiagnostics } from "../push-diagnostics-store.js";
import { requestTsserverDiagnostics, supportsTsserverDiagnostics } from "./tsserver-diagnostics.js";

/** Diagnostics of one document version, per channel; null where the channel did not answer. */
export interface SettledDiagnostics {
  readonly pull: readonly Diagnostic[] | null;
  readonly push: readonly Diagnostic[] | null;
}

/** Whether the server answers `textDocument/diagnostic`, statically or by registration. */
export function supportsPullDiagnostics(client: LspClient): boolean {
  return Boolean(client.capabilities.diagnosticProvider) || client.registrations.has(DocumentDiagnosticRequest.method);
}

/**
 * Waits until the server has settled for `document`'s version and returns what it said.
 *
 * typescript-language-server is pulled through tsserver (see `tsserver-diagnostics.ts`). With
 * LSP pull support the pull answer settles it, and a push for the same version that has already
 * arrived is merged in. Without it, settled means: a publish that describes this version (its
 * `version` matches, or, for servers that send none, it arrived after the version was sent) while
 * no work-done progress is running. The deadline turns "not settled" into `Timeout`, never into
 * an empty (clean) answer.
 */
export async function settleDiagnostics(client: LspClient, document: OpenDocument, options: RequestOptions): Promise<SettledDiagnostics> {
  if (supportsTsserverDiagnostics(client)) {
    return { pull: await requestTsserverDiagnostics(client, document.uri, options), push: null };
  }
  if (!supportsPullDiagnostics(client)) {
    // Some servers (pyright) register pull support only after `initialized`: that also ends the wait.
    const pushed = await options.deadline.race(
      waitForPushOrPull(client, document, options.signal),
      `diagnostics for ${document.uri} version ${document.version}`,
    );
    if (pushed !== "pull-registered") return { pull: null, push: pushed.diagnostics };
  }
  const report = await client.request(DocumentDiagnosticRequest.type, { textDocument: { uri: document.uri } }, options);
  const pull = report.kind === "full" ? report.items : [];
  const pushed = client.pushDiagnostics.get(document.uri);
  return { pull, push: pushed && describes(pushed, document) ? pushed.diagnostics : null };
}

function describes(published: PublishedDiagnostics, document: OpenDocument): boolean {
  if (published.version !== null) return published.version === document.version;
  return published.sequence > document.sentAfterSequence;
}

/** A publish made while progress ran, from a server whose profile says such publishes are not final. */
function provisional(client: LspClient, published: PublishedDiagnostics): boolean {
  return client.settleAfterProgress && published.duringProgress;
}

function waitForPushOrPull(
  client: LspClient,
  document: OpenDocument,
  signal: AbortSignal | undefined,
): Promise<PublishedDiagnostics | "pull-registered"> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const published = client.pushDiagnostics.get(document.uri);
      if (supportsPullDiagnostics(client)) {
        cleanup();
        resolve("pull-registered");
      } else if (published && describes(published, document) && client.progress.isIdle() && !provisional(client, published)) {
        cleanup();
        resolve(published);
      } else if (client.isClosed) {
        cleanup();
        reject(new BridgeError("ServerCrashed", "the language server went away while diagnostics were awaited", { uri: document.uri }));
      }
    };
    const onAbort = (): void => {
      cleanup();
      reject(new BridgeError("Timeout", "diagnostics were cancelled by the client", { cancelled: true }));
    };
    const unsubscribePush = client.pushDiagnostics.subscribe((uri) => {
      if (uri === document.uri) check();
    });
    const unsubscribeProgress = client.progress.subscribe(check);
    const unsubscribeClose = client.onClose(check);
    const unsubscribeRegistrations = client.registrations.subscribe(check);
    signal?.addEventListener("abort", onAbort, { once: true });
    function cleanup(): void {
      unsubscribePush();
      unsubscribeProgress();
      unsubscribeClose();
      unsubscribeRegistrations();
      signal?.removeEventListener("abort", onAbort);
    }
    check();
  });
}
