import { ResponseError } from "vscode-jsonrpc/node";
import { DocumentDiagnosticRequest, HoverRequest, LSPErrorCodes, PublishDiagnosticsNotification, type Diagnostic } from "vscode-languageserver-protocol";
import { afterEach, describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { pyreflyAdapter } from "../../../src/languages/python/pyrefly.js";
import { settleDiagnostics } from "../../../src/lsp/features/diagnostics-settle.js";
import { connectInProcess, disposePeers } from "../../helpers/in-process-server.js";

afterEach(disposePeers);

const URI = "file:///w/a.py";
const finding = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message, severity: 1 });

/**
 * The pyrefly adapter (issue 39, the CI failure of stop 35): a server that advertises no pulls,
 * whose push can be lost, is read by pull alone; a request it cancels on its own is sent again.
 */
describe("a server read by pull alone (pyrefly's adapter)", () => {
  test("pulls though no diagnosticProvider is advertised, and never waits for a push", async () => {
    let pulls = 0;
    const { client } = connectInProcess(
      {},
      (server) =>
        server.onRequest(DocumentDiagnosticRequest.type, () => {
          pulls += 1;
          return { kind: "full", items: [finding("from the pull")] };
        }),
      pyreflyAdapter,
    );
    await client.initialize(Deadline.in(5_000));
    const document = await client.documents.sync(URI, "python", "x = 1\n");
    const answer = await settleDiagnostics(client, document, { deadline: Deadline.in(5_000) });
    expect(answer).toEqual({ pull: [finding("from the pull")], push: null });
    expect(pulls).toBe(1);
  });

  test("a push for the version, even one sent before the pull's answer, is no part of the answer", async () => {
    const { client } = connectInProcess(
      {},
      (peer) =>
        peer.onRequest(DocumentDiagnosticRequest.type, async () => {
          await peer.sendNotification(PublishDiagnosticsNotification.type, { uri: URI, version: 1, diagnostics: [finding("pushed")] });
          return { kind: "full", items: [] };
        }),
      pyreflyAdapter,
    );
    await client.initialize(Deadline.in(5_000));
    const document = await client.documents.sync(URI, "python", "x = 1\n");
    expect(await settleDiagnostics(client, document, { deadline: Deadline.in(5_000) })).toEqual({ pull: [], push: null });
  });

  test("a pull the server cancels itself (RequestCancelled) is sent again until it is answered", async () => {
    let pulls = 0;
    const { client } = connectInProcess(
      {},
      (server) =>
        server.onRequest(DocumentDiagnosticRequest.type, () => {
          pulls += 1;
          if (pulls <= 3) throw new ResponseError(LSPErrorCodes.RequestCancelled, "Request textDocument/diagnostic is canceled due to subsequent mutation");
          return { kind: "full", items: [finding("answered")] };
        }),
      pyreflyAdapter,
    );
    await client.initialize(Deadline.in(5_000));
    const document = await client.documents.sync(URI, "python", "x = 1\n");
    expect(await settleDiagnostics(client, document, { deadline: Deadline.in(5_000) })).toEqual({ pull: [finding("answered")], push: null });
    expect(pulls).toBe(4);
  });

  test("any request it cancels itself is sent again (a hover here), within the deadline", async () => {
    let hovers = 0;
    const { client } = connectInProcess(
      { hoverProvider: true },
      (server) =>
        server.onRequest(HoverRequest.type, () => {
          hovers += 1;
          if (hovers <= 2) throw new ResponseError(LSPErrorCodes.RequestCancelled, "Request 6 is canceled");
          return { contents: "x: int" };
        }),
      pyreflyAdapter,
    );
    await client.initialize(Deadline.in(5_000));
    const params = { textDocument: { uri: URI }, position: { line: 0, character: 0 } };
    expect(await client.request(HoverRequest.type, params, { deadline: Deadline.in(5_000) })).toEqual({ contents: "x: int" });
    expect(hovers).toBe(3);
  });

  test("a server that cancels every time ends in the deadline's Timeout, not a hang", async () => {
    const { client } = connectInProcess(
      { hoverProvider: true },
      (server) =>
        server.onRequest(HoverRequest.type, () => {
          throw new ResponseError(LSPErrorCodes.RequestCancelled, "canceled");
        }),
      pyreflyAdapter,
    );
    await client.initialize(Deadline.in(5_000));
    const params = { textDocument: { uri: URI }, position: { line: 0, character: 0 } };
    await expect(client.request(HoverRequest.type, params, { deadline: Deadline.in(200) })).rejects.toMatchObject({ code: "Timeout" });
  });

  test("the standard adapter takes the same RequestCancelled as the server's error (no pull sent again)", async () => {
    let pulls = 0;
    const { client } = connectInProcess({ diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } }, (server) =>
      server.onRequest(DocumentDiagnosticRequest.type, () => {
        pulls += 1;
        throw new ResponseError(LSPErrorCodes.RequestCancelled, "cancelled");
      }),
    );
    await client.initialize(Deadline.in(5_000));
    const document = await client.documents.sync(URI, "python", "x = 1\n");
    await expect(settleDiagnostics(client, document, { deadline: Deadline.in(5_000) })).rejects.toMatchObject({ code: "ServerCrashed" });
    expect(pulls).toBe(1);
  });
});
