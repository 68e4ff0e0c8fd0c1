// A minimal LSP client over a supervised server's stdio, for driving servers in tests.
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import type { Readable, Writable } from "node:stream";

export function connect(io: { stdout: Readable; stdin: Writable; stderr: Readable }): MessageConnection {
  // The stderr pipe must be drained or a chatty server blocks on a full pipe.
  io.stderr.resume();
  const connection = createMessageConnection(new StreamMessageReader(io.stdout), new StreamMessageWriter(io.stdin));
  connection.onError(() => {});
  connection.listen();
  return connection;
}

export async function initialize(connection: MessageConnection, rootUri: string | null = null): Promise<unknown> {
  const result = await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: rootUri ? [{ uri: rootUri, name: "ws" }] : null,
    capabilities: {},
  });
  await connection.sendNotification("initialized", {});
  return result;
}
