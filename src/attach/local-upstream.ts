import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { LineHandler, Upstream } from "./socket-upstream.js";

/**
 * Sessions of its own for an attached lspmcp that could not have a shared server: `server` (a
 * standalone MCP server) behind an in-process link, so the forwarder goes on as it was. `cleanUp`
 * runs at close, after the server (it reaps the sessions' trees).
 */
export async function localUpstream(server: Server, onLine: LineHandler, cleanUp: () => Promise<void>): Promise<Upstream> {
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  ours.onmessage = (message) => onLine(JSON.stringify(message));
  await server.connect(theirs);
  await ours.start();
  return {
    send: (message) => void ours.send(message),
    close: async () => {
      await server.close().catch(() => {});
      await cleanUp();
    },
  };
}
