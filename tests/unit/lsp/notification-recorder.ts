import type { MessageConnection } from "vscode-jsonrpc/node";

/** A connection that records the notifications sent: method and URI, and the version when there is one. */
export function recorder(): { connection: MessageConnection; sent: string[]; closed: string[] } {
  const sent: string[] = [];
  const closed: string[] = [];
  const connection = {
    sendNotification: (type: { method: string }, params: { textDocument: { uri: string; version?: number } }) => {
      const { uri, version } = params.textDocument;
      sent.push(`${type.method.replace("textDocument/", "")} ${uri}${version === undefined ? "" : ` v${version}`}`);
      return Promise.resolve();
    },
  } as unknown as MessageConnection;
  return { connection, sent, closed };
}
