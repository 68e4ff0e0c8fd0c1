import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProtocolRequestType } from "vscode-languageserver-protocol";
import { BridgeError } from "../../contract/errors.js";
import type { RequestOptions } from "../../lsp/request-options.js";
import type { ServerLink } from "../../lsp/server-adapter.js";
import { SocketPeer } from "../../lsp/socket-peer.js";

interface InitializeApiSessionParams {
  readonly pipe: string;
}
interface InitializeApiSessionResult {
  readonly sessionId: string;
  readonly pipe: string;
}

/** TypeScript 7's request that opens an API session on a Unix socket of the client's choosing. */
const InitializeApiSessionRequest = new ProtocolRequestType<InitializeApiSessionParams, InitializeApiSessionResult, never, void, void>(
  "custom/initializeAPISession",
);

/**
 * Opens TypeScript 7's API session on `link`'s server: JSON-RPC, framed as LSP, over the Unix
 * socket the server listens on once asked (`custom/initializeAPISession`). It shares the server's
 * projects, open documents and the changes it was told of, and answers a whole program's
 * diagnostics in one message. The socket lives in a private temporary folder of the bridge's own
 * (mode 0700), removed once connected; the session ends with its server's connection. The
 * server serves it itself: no process is added to the server's tree. Throws, leaving nothing
 * behind, when it cannot be opened.
 */
async function openApiSession(link: ServerLink, options: RequestOptions): Promise<SocketPeer> {
  const folder = mkdtempSync(join(tmpdir(), "lspmcp-api-"));
  try {
    const pipe = join(folder, "api.sock");
    const answer = await link.request(InitializeApiSessionRequest, { pipe }, options);
    if (answer?.pipe !== pipe) throw new Error(`the server listens on ${String(answer?.pipe)}, not on the socket asked`);
    const peer = await SocketPeer.connect(pipe, options);
    // A connection lives on without its path: gone now, the folder is not left behind by a bridge
    // that is killed or exits without closing its sessions, and no one else can connect.
    rmSync(folder, { recursive: true, force: true });
    const stopListening = link.onClose(() => peer.close());
    peer.onClose(stopListening);
    try {
      await peer.request("initialize", null, options);
    } catch (error) {
      peer.close();
      throw error;
    }
    return peer;
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Per server connection, its API session once opened; null once the server said it has none (an
 * unknown request), so that it is not asked again.
 */
const sessions = new WeakMap<ServerLink, Promise<SocketPeer | null>>();

/**
 * `link`'s API session, opened on first use. Null when the server has none; any other failure
 * rejects, and the next call tries again.
 */
export function apiSessionOf(link: ServerLink, options: RequestOptions): Promise<SocketPeer | null> {
  const known = sessions.get(link);
  if (known) {
    return known.then((session) => {
      if (session === null || !session.isClosed) return session;
      sessions.delete(link);
      return apiSessionOf(link, options);
    });
  }
  const opening = openApiSession(link, options).catch((error: unknown) => {
    if (error instanceof BridgeError && error.code === "NotSupported") return null;
    sessions.delete(link);
    throw error;
  });
  sessions.set(link, opening);
  return opening;
}
