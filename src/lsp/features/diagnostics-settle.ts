import { DocumentDiagnosticRequest, type Diagnostic, type DocumentDiagnosticReport } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import { busyThroughWindow } from "../../contract/quiet-window.js";
import type { OpenDocument } from "../document-sync.js";
import type { LspClient, RequestOptions } from "../lsp-client.js";
import type { SettleAction } from "../server-adapter.js";
import type { ServerEvent } from "../server-events.js";
import { decideSettle, startSettle, stepSettle } from "../settle-rule.js";
import type { PullReport, SettleEvent, SettleFailure, SettleState } from "../settle-state.js";

/** Diagnostics of one document version, per channel; null where the channel did not answer. */
interface SettledDiagnostics {
  readonly pull: readonly Diagnostic[] | null;
  readonly push: readonly Diagnostic[] | null;
  /** The server did not check the document, and why (bacon-ls's cargo failed); absent: it did. */
  readonly notChecked?: string;
}

/**
 * Waits until the server has settled for `document`'s version and returns what it said.
 *
 * A server with a project model reads a document's diagnostics with one complete request
 * (TypeScript's servers): it is asked once; every other server is settled by the rule of `settle-rule.ts`, fed with
 * the live events of the connection. The deadline and the caller's signal turn "not settled" into `Timeout`, a closed
 * connection into `ServerCrashed`, never into an empty (clean) answer. However the wait ends, it
 * leaves nothing behind: no listener on the client or the signal, no timer, no pull in flight.
 */
export async function settleDiagnostics(client: LspClient, document: OpenDocument, options: RequestOptions): Promise<SettledDiagnostics> {
  const model = client.adapter.projectModel;
  if (model) return { pull: await model.documentDiagnostics(document.uri, options), push: null };
  return waitForSettle(client, document, options);
}

function waitForSettle(client: LspClient, document: OpenDocument, { deadline, signal }: RequestOptions): Promise<SettledDiagnostics> {
  const { uri } = document;
  const what = `diagnostics for ${uri} version ${document.version}`;
  return new Promise((resolve, reject) => {
    const byPull = client.adapter.diagnosticsByPull;
    let state: SettleState = startSettle({
      uri,
      version: document.version,
      pullStatic: byPull || Boolean(client.capabilities.diagnosticProvider),
      strategy: client.adapter.settle,
      quietMs: client.settleQuietMs,
    });
    let done = false;
    // Pulls are cancelled when the wait ends for any reason, through this one signal.
    const pulls = new AbortController();
    const stopEvents = client.events.subscribe((event) => feed(event));
    const stopTimer = deadline.onExpire(() => feed({ type: "deadline" }));
    const onAbort = (): void => feed({ type: "deadline" });
    signal?.addEventListener("abort", onAbort, { once: true });
    // The quiet window's one timer, and the mark it was armed for.
    let quiet: { mark: number; timer: NodeJS.Timeout } | null = null;

    function finish(outcome: () => void): void {
      done = true;
      stopEvents();
      stopTimer();
      if (quiet) clearTimeout(quiet.timer);
      signal?.removeEventListener("abort", onAbort);
      pulls.abort();
      outcome();
    }

    function feed(event: SettleEvent): void {
      // A server read by pull alone: a push of its is no answer and no part of one.
      if (done || (byPull && event.type === "publish")) return;
      state = stepSettle(state, event);
      const decision = decideSettle(state);
      if (decision.kind === "pull") {
        state = stepSettle(state, { type: "pull-sent", uri });
        pull();
      } else if (decision.kind === "barrier" || decision.kind === "flycheck" || decision.kind === "build-run") {
        if (decision.kind === "barrier") state = stepSettle(state, { type: "barrier-sent" });
        if (decision.kind === "build-run") state = stepSettle(state, { type: "build-run-asked" });
        perform(decision.kind);
      } else if (decision.kind === "quiet") {
        armQuiet(decision.mark);
      } else if (decision.kind === "settled") {
        const { pull, push, notChecked } = decision;
        finish(() => resolve({ pull, push, ...(notChecked === undefined ? {} : { notChecked }) }));
      } else if (decision.kind === "failed") {
        finish(() => reject(failure(decision.reason)));
      }
    }

    // The rule asks again at each event while it waits: the window restarts only for a new mark,
    // or when the server's tree kept computing through it (a silent server may still be working
    // towards its next publish: typescript-language-server type-checking a cold project).
    function armQuiet(mark: number): void {
      if (quiet?.mark === mark) return;
      if (quiet) clearTimeout(quiet.timer);
      startWindow(mark);
    }

    function startWindow(mark: number): void {
      const ticks = client.adapter.busyWithoutPublishing ? null : client.serverCpuTicks();
      quiet = {
        mark,
        timer: setTimeout(() => {
          if (busyThroughWindow(ticks, client.serverCpuTicks(), client.settleQuietMs)) startWindow(mark);
          else feed({ type: "quiet", mark });
        }, client.settleQuietMs),
      };
    }

    function pull(): void {
      client.request(DocumentDiagnosticRequest.type, { textDocument: { uri } }, { deadline, signal: pulls.signal }).then(
        (report) => feed({ type: "pull-answer", uri, report: pullReport(report) }),
        (error: unknown) => {
          if (retriggered(error)) feed({ type: "pull-retrigger", uri });
          else if (!done) finish(() => reject(error));
        },
      );
    }

    // The adapter tells the rule it is done with the event it resolves to, or through the
    // connection's events (a flycheck or cargo run asked for reaches every wait of the session).
    function perform(action: SettleAction): void {
      client.adapter.perform(action, { deadline, signal: pulls.signal }, uri).then(
        (event) => event && feed(event),
        (error: unknown) => {
          if (!done) finish(() => reject(error));
        },
      );
    }

    function failure(reason: SettleFailure): BridgeError {
      if (reason === "closed") {
        return new BridgeError("ServerCrashed", "the language server went away while diagnostics were awaited", { uri });
      }
      if (reason === "no-full-answer") {
        return new BridgeError("Timeout", `${what} did not settle: the server answered every pull with "unchanged"`, { uri, waiting_for: what });
      }
      if (reason === "no-last-publish") {
        return new BridgeError(
          "Timeout",
          `${what} did not settle: the server gives no sign of its last publish, and its settle_quiet_ms is 0 (no quiet window)`,
          { uri, waiting_for: what },
        );
      }
      if (signal?.aborted) return new BridgeError("Timeout", "diagnostics were cancelled by the client", { cancelled: true });
      return deadline.timeoutError(what);
    }

    for (const event of startingEvents(client, document)) feed(event);
    if (signal?.aborted) feed({ type: "deadline" });
  });
}

/**
 * The session's state when the wait starts, told as events: the pull registrations and progress
 * already live, our sync of this version, and a publish that came in since and describes it.
 */
function startingEvents(client: LspClient, document: OpenDocument): SettleEvent[] {
  const events: SettleEvent[] = [];
  for (const id of client.registrations.idsFor(DocumentDiagnosticRequest.method)) {
    events.push({ type: "register", id, method: DocumentDiagnosticRequest.method });
  }
  for (const token of client.progress.runningTokens()) events.push({ type: "progress", token, kind: "begin" });
  events.push(...client.adapter.startingEvents(document.uri));
  events.push({ type: "sync", uri: document.uri, version: document.version });
  const published = client.pushDiagnostics.get(document.uri);
  // A publish made while progress ran is no candidate under the after-progress strategy, even
  // when that progress has ended since.
  const provisional = published?.duringProgress === true && client.adapter.settle === "after-progress";
  if (published && published.sequence > document.sentAfterSequence && !provisional) {
    events.push({ type: "publish", uri: document.uri, version: published.version, diagnostics: published.diagnostics } satisfies ServerEvent);
  }
  if (client.isClosed) events.push({ type: "close" });
  return events;
}

/**
 * A pull the server cancelled and asks to be sent again (ServerCancelled with `retriggerRequest`):
 * ty does so whenever a change (another file opened) arrives while it computes the answer. (A
 * server whose adapter says it cancels requests itself is asked again by the client.)
 */
function retriggered(error: unknown): boolean {
  return error instanceof BridgeError && error.details.retrigger_request === true;
}

function pullReport(report: DocumentDiagnosticReport): PullReport {
  return report.kind === "full" ? { kind: "full", items: report.items } : { kind: "unchanged" };
}
