import { ResponseError } from "vscode-jsonrpc/node";
import { DocumentDiagnosticRequest, LSPErrorCodes, PublishDiagnosticsNotification, type Diagnostic } from "vscode-languageserver-protocol";
import { afterEach, describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { pyreflyAdapter } from "../../../src/lsp/adapters/pyrefly.js";
import { settleDiagnostics } from "../../../src/lsp/features/diagnostics-settle.js";
import { connectInProcess, disposePeers } from "../../helpers/in-process-server.js";

afterEach(disposePeers);

const URI = "file:///w/a.py";
const finding = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message, severity: 1 });

/**
 * The pyrefly adapter (issue 39, the CI failure of stop 35): a server that advertises no pulls,
 * whose push can be lost, is read by pull alone; a pull it cancels on its own is sent again.
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
