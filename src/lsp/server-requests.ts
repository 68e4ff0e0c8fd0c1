import {
  ApplyWorkspaceEditRequest,
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowDocumentRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  ErrorCodes,
  ResponseError,
  type PublishDiagnosticsParams,
  type WorkspaceFolder,
} from "vscode-languageserver-protocol";
import type { MessageConnection } from "vscode-jsonrpc/node";
import type { DynamicRegistrations } from "./dynamic-registrations.js";
import type { ProgressTracker } from "./progress-tracker.js";
import type { PushDiagnosticsStore } from "./push-diagnostics-store.js";
import type { ServerEvents } from "./server-events.js";
import { lookupSetting } from "./settings-lookup.js";

/** The request by which a schema server asks its client for a URL's content. */
const SCHEMA_CONTENT_REQUEST = "vscode/content";
/** What such a server is told, and then says in its finding in place of the URL's answer. */
export const REMOTE_SCHEMA_REFUSAL = "lspmcp fetches no schema from the network";

interface ServerRequestContext {
  readonly settings: Readonly<Record<string, unknown>>;
  readonly workspaceFolders: readonly WorkspaceFolder[];
  readonly registrations: DynamicRegistrations;
  readonly progress: ProgressTracker;
  readonly pushDiagnostics: PushDiagnosticsStore;
  /** Hears every publish, progress and registration change, after the stores above. */
  readonly events: ServerEvents;
  /** Server log lines (window/logMessage, window/showMessage) go here, never to stdout. */
  readonly log: (line: string) => void;
  /** Hears every publish as sent, before `pushDiagnostics` keeps or drops it (for the server's adapter). */
  readonly onPublish: (params: PublishDiagnosticsParams) => void;
  /** Hears every `$/progress` value as sent, before the tracker and the events (bacon-ls's adapter reads its end's message). */
  readonly onProgress: (token: string | number, value: unknown) => void;
  /** The server published diagnostics or began work-done progress: it is past its boot. */
  readonly onWork: () => void;
  /** Hears the method of each request of the server's that the client has answered, once the answer is sent. */
  readonly onAnswered: (method: string) => void;
  /** Progress tokens that do not bear on diagnostics: neither tracked nor told (the adapter's; ccls's `index`). */
  readonly ignoredProgress: ReadonlySet<string>;
}

/**
 * Wires every request and notification a server may send to the client. Whatever is not handled
 * here is answered by vscode-jsonrpc with MethodNotFound, which is the honest answer.
 */
export function handleServerRequests(connection: MessageConnection, context: ServerRequestContext): void {
  connection.onRequest(ConfigurationRequest.type, (params) => {
    // vscode-jsonrpc writes a handler's plain answer as the handler returns: told after that, a
    // listener's next message to the server follows the answer.
    setImmediate(() => context.onAnswered(ConfigurationRequest.method));
    return params.items.map((item) => lookupSetting(context.settings, item.section));
  });
  connection.onRequest(WorkspaceFoldersRequest.type, () => [...context.workspaceFolders]);
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  connection.onRequest(RegistrationRequest.type, (params) => {
    context.registrations.register(params.registrations);
    for (const { id, method } of params.registrations) context.events.emit({ type: "register", id, method });
  });
  connection.onRequest(UnregistrationRequest.type, (params) => {
    context.registrations.unregister(params.unregisterations);
    for (const { id } of params.unregisterations) context.events.emit({ type: "unregister", id });
  });
  // lspmcp is read-only: a server that tries to edit files is told no.
  connection.onRequest(ApplyWorkspaceEditRequest.type, () => ({
    applied: false,
    failureReason: "lspmcp is a read-only client and never applies workspace edits",
  }));
  // A schema server (yaml-language-server, vscode-json-language-server) asks the client for the
  // content of a remote schema it does not fetch itself; lspmcp fetches nothing a file names.
  connection.onRequest(SCHEMA_CONTENT_REQUEST, () => new ResponseError(ErrorCodes.InvalidRequest, REMOTE_SCHEMA_REFUSAL));
  connection.onRequest(ShowMessageRequest.type, () => null);
  connection.onRequest(ShowDocumentRequest.type, () => ({ success: false }));
  // We pull on every call anyway, so a refresh needs no action.
  connection.onRequest(DiagnosticRefreshRequest.type, () => undefined);

  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    context.onWork();
    context.onPublish(params);
    if (!context.pushDiagnostics.onPublish(params, !context.progress.isIdle())) return;
    const version = typeof params.version === "number" ? params.version : null;
    context.events.emit({ type: "publish", uri: params.uri, version, diagnostics: params.diagnostics });
  });
  // vscode-jsonrpc owns `$/progress`; tokens nobody registered a handler for arrive here.
  connection.onUnhandledProgress((params) => {
    context.onProgress(params.token, params.value);
    if (context.ignoredProgress.has(String(params.token))) return;
    const kind = context.progress.onProgress(params.token, params.value);
    if (kind === "begin") context.onWork();
    if (kind) context.events.emit({ type: "progress", token: params.token, kind });
  });
  // rust-analyzer's readiness (sent to clients that declare experimental.serverStatusNotification).
  connection.onNotification("experimental/serverStatus", (params: { quiescent?: unknown }) => {
    context.events.emit({ type: "status", quiescent: params?.quiescent === true });
  });
  connection.onNotification(LogMessageNotification.type, (params) => context.log(params.message));
  connection.onNotification(ShowMessageNotification.type, (params) => context.log(params.message));
  connection.onNotification("telemetry/event", () => undefined);
}
