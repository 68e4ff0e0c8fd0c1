import { PassThrough } from "node:stream";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import { InitializeRequest, type ServerCapabilities } from "vscode-languageserver-protocol";
import type { AdapterFactory } from "../../src/lsp/server-adapter.js";
import { standardAdapter } from "../../src/languages/standard.js";
import { LspClient } from "../../src/lsp/lsp-client.js";

// A JSON-RPC peer in the same process, on real streams, for the client-side unit tests: what a
// client subscribes to and lets go of is all on its side, so that is where tests look.
const peers: MessageConnection[] = [];

/** Ends every peer that {@link connectInProcess} made (an `afterEach`). */
export function disposePeers(): void {
  for (const peer of peers.splice(0)) peer.dispose();
}

/**
 * A server peer answering `initialize` with `capabilities` (and whatever `wire` adds), and an
 * LspClient connected to it through `adapter` (told of the project roots `projects`, absolute folders), not yet initialized. `toClient` is the server's output stream:
 * ending it closes the connection as a server exit would.
 */
export function connectInProcess(
  capabilities: ServerCapabilities,
  wire: (server: MessageConnection) => void = () => {},
  adapter: AdapterFactory = standardAdapter,
  projects: readonly string[] = [],
): { client: LspClient; server: MessageConnection; toClient: PassThrough } {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  server.onRequest(InitializeRequest.type, () => ({ capabilities }));
  wire(server);
  server.listen();
  peers.push(server);
  const client = LspClient.connect({
    input: toClient,
    output: toServer,
    rootPath: "/w",
    workspaceName: "w",
    initializationOptions: {},
    projects,
    settings: {},
    adapter,
    log: () => {},
  });
  return { client, server, toClient };
}
