/**
 * Wires the LSP connection to the checker, the scheduler and the outline. Thin on purpose:
 * each handler hands off to one module, so the behaviour lives where it can be tested alone.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  DocumentDiagnosticReportKind,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type Connection,
  type Diagnostic,
  type InitializeResult,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { CheckQueue } from "./check-queue.js";
import { CheckScheduler } from "./check-scheduler.js";
import { checkDocument, unreadableDiagnostics, type CheckReport, type DocumentSnapshot } from "./checker.js";
import { DiagnosticsStore } from "./diagnostics-store.js";
import { toDocumentSymbols } from "./lsp-symbols.js";
import { parseOptions, type MaudeServerOptions } from "./options.js";
import { killAllGroups } from "./process-groups.js";
import { outlineMaude } from "./outline.js";
import { SERVER_NAME, SERVER_VERSION } from "./version.js";

/** Where the server writes its own log lines (the bridge keeps them as the stderr tail). */
type Log = (line: string) => void;

/** Registers every handler on `connection` and starts listening. */
export function startServer(connection: Connection, log: Log): void {
  const documents = new TextDocuments(TextDocument);
  const store = new DiagnosticsStore();
  let scheduler: CheckScheduler | null = null;
  let shuttingDown = false;

  const snapshot = (doc: TextDocument): DocumentSnapshot => ({ uri: doc.uri, version: doc.version, text: doc.getText() });

  // Publishes a finished check, unless the document moved on or closed meanwhile.
  const publish = (report: CheckReport): void => {
    if (shuttingDown) return;
    for (const line of report.otherStderr) log(`maude (${report.uri}): ${line}`);
    if (report.failure !== null) log(`check of ${report.uri} failed: ${report.failure.code}: ${report.failure.message}`);
    const doc = documents.get(report.uri);
    if (doc === undefined || doc.version !== report.version) return;
    for (const uri of store.apply(report)) {
      if (uri === report.uri) void connection.sendDiagnostics({ uri, version: report.version ?? undefined, diagnostics: store.view(uri) });
      // A loaded file with its own check keeps that; otherwise it shows what loading it said.
      else if (!store.hasOwn(uri)) void connection.sendDiagnostics({ uri, diagnostics: store.view(uri) });
    }
  };

  const startCheck = (options: MaudeServerOptions): CheckScheduler =>
    new CheckScheduler(new CheckQueue(options.maxConcurrentChecks), async (snap) => {
      const report = await checkDocument(snap, options);
      publish(report);
      return report;
    });

  connection.onInitialize((params): InitializeResult | ResponseError<{ retry: boolean }> => {
    const parsed = parseOptions(params.initializationOptions, process.env, process.cwd());
    if (!parsed.ok) return new ResponseError(-32602, `${SERVER_NAME} cannot start: ${parsed.problems.join("; ")}`, { retry: false });
    scheduler = startCheck(parsed.options);
    log(
      `${SERVER_NAME} ${SERVER_VERSION}: maude ${parsed.options.maudePath}, timeout ${parsed.options.timeoutMs} ms, ${parsed.options.maxConcurrentChecks} at once`,
    );
    return {
      capabilities: {
        positionEncoding: "utf-16",
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Full, save: { includeText: false } },
        diagnosticProvider: { identifier: "maude", interFileDependencies: true, workspaceDiagnostics: false },
        documentSymbolProvider: true,
      },
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    };
  });

  documents.onDidChangeContent((e) => void scheduler?.request(snapshot(e.document)));
  documents.onDidSave((e) => void scheduler?.request(snapshot(e.document), true));
  documents.onDidClose((e) => {
    scheduler?.forget(e.document.uri);
    const affected = new Set([e.document.uri, ...store.removeOwner(e.document.uri)]);
    for (const uri of affected) if (!store.hasOwn(uri)) void connection.sendDiagnostics({ uri, diagnostics: store.view(uri) });
  });

  connection.languages.diagnostics.on(async (params) => {
    const items = await pullDiagnostics(params.textDocument.uri);
    return { kind: DocumentDiagnosticReportKind.Full, items };
  });

  // A pull checks the document's current text; a file that is not open is checked from disk.
  const pullDiagnostics = async (uri: string): Promise<Diagnostic[]> => {
    if (scheduler === null) return [];
    const doc = documents.get(uri);
    if (doc !== undefined) return (await scheduler.request(snapshot(doc))).diagnostics.get(uri) ?? [];
    let text: string;
    try {
      text = readFileSync(fileURLToPath(uri), "utf8");
    } catch (err) {
      return unreadableDiagnostics(String(err));
    }
    return (await scheduler.request({ uri, version: null, text })).diagnostics.get(uri) ?? [];
  };

  connection.onDocumentSymbol((params) => {
    const doc = documents.get(params.textDocument.uri);
    return doc === undefined ? [] : toDocumentSymbols(outlineMaude(doc.getText()).symbols);
  });

  connection.onShutdown(() => {
    shuttingDown = true;
    killAllGroups(); // Checks in flight are of no use to a client that is leaving.
  });

  documents.listen(connection);
  connection.listen();
}
