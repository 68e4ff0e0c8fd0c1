import { getEventListeners } from "node:events";
import type { CancellationToken, MessageConnection } from "vscode-jsonrpc/node";
import {
  DocumentDiagnosticRequest,
  HoverRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  WorkDoneProgress,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import { afterEach, describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { settleDiagnostics } from "../../../src/lsp/features/diagnostics-settle.js";
import { connectInProcess, disposePeers } from "../../helpers/in-process-server.js";

afterEach(disposePeers);

async function connect(capabilities: ServerCapabilities, wire: (server: MessageConnection) => void = () => {}) {
  const { client, server, toClient } = connectInProcess(capabilities, wire);
  await client.initialize(Deadline.in(5_000));
  const document = await client.documents.sync("file:///w/a.py", "python", "x = 1\n");
  return { client, server, document, toClient };
}

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("requests let go of the caller's signal", () => {
  test("a hundred answered requests on one signal leave no abort listener on it", async () => {
    const { client } = await connect({ hoverProvider: true }, (server) => server.onRequest(HoverRequest.type, () => null));
    const signal = new AbortController().signal;
    const params = { textDocument: { uri: "file:///w/a.py" }, position: { line: 0, character: 0 } };
    for (let i = 0; i < 100; i++) await client.request(HoverRequest.type, params, { deadline: Deadline.in(5_000), signal });
    expect(abortListeners(signal)).toBe(0);
  });

  test("nor does one that the caller aborts", async () => {
    const { client } = await connect({ hoverProvider: true }, (server) => server.onRequest(HoverRequest.type, () => new Promise(() => {})));
    const controller = new AbortController();
    const params = { textDocument: { uri: "file:///w/a.py" }, position: { line: 0, character: 0 } };
    const pending = client.request(HoverRequest.type, params, { deadline: Deadline.in(5_000), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "Timeout", details: { cancelled: true } });
    expect(abortListeners(controller.signal)).toBe(0);
  });
});

describe("a diagnostics wait leaves nothing on the client, however it ends", () => {
  test("deadline while the server stays silent: Timeout, no subscription, no abort listener", async () => {
    const { client, document } = await connect({});
    const signal = new AbortController().signal;
    await expect(settleDiagnostics(client, document, { deadline: Deadline.in(50), signal })).rejects.toMatchObject({ code: "Timeout" });
    expect(client.events.listenerCount).toBe(0);
    expect(abortListeners(signal)).toBe(0);
  });

  test("deadline during a pull: the pull is cancelled at the server, and nothing stays subscribed", async () => {
    let cancelled!: () => void;
    const cancelledAtServer = new Promise<void>((resolve) => (cancelled = resolve));
    const { client, document } = await connect({ diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } }, (server) =>
      server.onRequest(DocumentDiagnosticRequest.type, (_params, token: CancellationToken) => {
        // A cancel that arrives before the request is dispatched gives a token that is already
        // cancelled and never fires its event.
        if (token.isCancellationRequested) cancelled();
        else token.onCancellationRequested(() => cancelled());
        return new Promise(() => {});
      }),
    );
    await expect(settleDiagnostics(client, document, { deadline: Deadline.in(50) })).rejects.toMatchObject({ code: "Timeout" });
    await cancelledAtServer;
    expect(client.events.listenerCount).toBe(0);
  });

  test("the caller's abort: Timeout (cancelled), nothing left", async () => {
    const { client, document } = await connect({});
    const controller = new AbortController();
    const pending = settleDiagnostics(client, document, { deadline: Deadline.in(5_000), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "Timeout", details: { cancelled: true } });
    expect(client.events.listenerCount).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  test("the server going away: ServerCrashed, nothing left", async () => {
    const { client, document, toClient } = await connect({});
    const pending = settleDiagnostics(client, document, { deadline: Deadline.in(5_000) });
    toClient.end();
    await expect(pending).rejects.toMatchObject({ code: "ServerCrashed" });
    expect(client.events.listenerCount).toBe(0);
  });

  test("settled by a pull after a late registration, a push that came first merged in", async () => {
    const item = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: "m" };
    const { client, server, document } = await connect({}, (peer) =>
      peer.onRequest(DocumentDiagnosticRequest.type, () => ({ kind: "full" as const, items: [item] })),
    );
    const signal = new AbortController().signal;
    const pending = settleDiagnostics(client, document, { deadline: Deadline.in(5_000), signal });
    // A publish while progress runs does not settle; then pull support is registered.
    await server.sendProgress(WorkDoneProgress.type, "t", { kind: "begin", title: "x" });
    await server.sendNotification(PublishDiagnosticsNotification.type, { uri: document.uri, version: document.version, diagnostics: [item] });
    await server.sendRequest(RegistrationRequest.type, { registrations: [{ id: "r", method: DocumentDiagnosticRequest.method }] });
    await expect(pending).resolves.toEqual({ pull: [item], push: [item] });
    expect(client.events.listenerCount).toBe(0);
    expect(abortListeners(signal)).toBe(0);
  });
});
