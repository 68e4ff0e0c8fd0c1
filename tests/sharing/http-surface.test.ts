// The shared server's HTTP side as any Streamable HTTP client sees it: the SDK's own client
// works with the lease's secret; everything else at the door is refused.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Bridge } from "../helpers/bridge.js";
import { pollUntil } from "../helpers/poll.js";
import { leaseOf, SharedRun, sharedFixture, treeOf } from "./helpers/shared.js";

const run = new SharedRun();
let clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  clients = [];
  await run.cleanUp();
});

/** A shared server kept alive by one attached worker; its URL and secret from the lease. */
async function sharedServer(options: { session_idle_ms?: number } = {}): Promise<{ url: URL; token: string; port: number; worker: Bridge }> {
  const fixture = run.use(sharedFixture(options));
  const worker = await run.attach();
  const lease = leaseOf(fixture)!;
  run.seen.push(...treeOf(lease.pid));
  const url = new URL(lease.url);
  return { url, token: lease.token, port: Number(url.port), worker };
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to the shared server's port, headers exactly as given. */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A POST that declares a body of `length` bytes and holds it back until the server has answered;
 * resolves with the status. A server that refuses the body answers on the declaration and closes
 * without reading: had the body been sent, its close could reset the connection (EPIPE on our
 * side) before the answer was read, so the body's bytes wait for an answer that never asks for them.
 */
function declaredBody(port: number, headers: Record<string, string>, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers: { ...headers, "content-length": String(length) } }, (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on("end", () => resolve(status!));
    });
    // After the answer, the unsent body makes the end of the exchange an error; that is expected.
    req.on("error", (error) => (status === undefined ? reject(error) : resolve(status)));
    req.flushHeaders();
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

function mcpHeaders(port: number, token: string): Record<string, string> {
  return { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
}

describe("the shared server's HTTP endpoint", () => {
  it("serves the SDK's Streamable HTTP client that carries the lease's secret", async () => {
    const { url, token, worker } = await sharedServer();
    const client = new Client({ name: "http-test", version: "0" });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("document_symbols");
    const result = await client.callTool({ name: "document_symbols", arguments: { path: "src/greet.ts" } });
    expect(result.isError).toBeFalsy();
    // The same answer the stdio worker gets.
    expect(result.structuredContent).toEqual(await worker.ok("document_symbols", { path: "src/greet.ts" }));
  });

  it("refuses a foreign Host (DNS rebinding), any Origin, and a missing or wrong secret", async () => {
    const { port, token } = await sharedServer();
    const good = mcpHeaders(port, token);
    expect((await raw(port, "POST", "/mcp", { ...good, host: `evil.example:${port}` }, INITIALIZE)).status).toBe(403);
    expect((await raw(port, "POST", "/mcp", { ...good, host: `127.0.0.1:${port + 1}` }, INITIALIZE)).status).toBe(403);
    expect((await raw(port, "POST", "/mcp", { ...good, origin: "http://evil.example" }, INITIALIZE)).status).toBe(403);
    const { authorization: _, ...anonymous } = good;
    expect((await raw(port, "POST", "/mcp", anonymous, INITIALIZE)).status).toBe(401);
    expect((await raw(port, "POST", "/mcp", { ...good, authorization: "Bearer wrong" }, INITIALIZE)).status).toBe(401);
    expect((await raw(port, "GET", "/lspmcp/status", anonymous)).status).toBe(401);
    // The well-formed request is let in.
    const admitted = await raw(port, "POST", "/mcp", { ...good, host: `localhost:${port}` }, INITIALIZE);
    expect(admitted.status).toBe(200);
    expect(admitted.headers["mcp-session-id"]).toBeTruthy();
  });

  it("bounds request bodies at 4 MiB (413), answers a body that is not JSON with -32700, and goes on serving", async () => {
    const { port, token, worker } = await sharedServer();
    expect(await declaredBody(port, mcpHeaders(port, token), 4 * 1024 * 1024 + 1024)).toBe(413);
    const garbled = await raw(port, "POST", "/mcp", mcpHeaders(port, token), "{oops");
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body).error.code).toBe(-32700);
    expect((await raw(port, "POST", "/mcp", mcpHeaders(port, token), INITIALIZE)).status).toBe(200);
    await worker.ok("session_status");
  });

  it("DELETE ends a session, and a peer that goes quiet without one is expired", async () => {
    const { port, token, worker } = await sharedServer({ session_idle_ms: 300 });
    const peers = async (): Promise<number> => JSON.parse((await raw(port, "GET", "/lspmcp/status", mcpHeaders(port, token))).body).peers.length;
    expect(await peers()).toBe(1);

    const opened = await raw(port, "POST", "/mcp", mcpHeaders(port, token), INITIALIZE);
    const session = opened.headers["mcp-session-id"] as string;
    expect(await peers()).toBe(2);
    expect((await raw(port, "DELETE", "/mcp", { ...mcpHeaders(port, token), "mcp-session-id": session })).status).toBe(200);
    expect(await peers()).toBe(1);
    expect((await raw(port, "POST", "/mcp", { ...mcpHeaders(port, token), "mcp-session-id": session }, INITIALIZE)).status).toBe(404);

    // No DELETE, no event stream, no requests: ended after session_idle_ms. The attached worker,
    // whose event stream stays open, is never expired.
    const quiet = (await raw(port, "POST", "/mcp", mcpHeaders(port, token), INITIALIZE)).headers["mcp-session-id"] as string;
    expect(await peers()).toBe(2);
    await pollUntil(async () => (await peers()) === 1, 5000, 50);
    expect(await peers()).toBe(1);
    const stale = await raw(port, "POST", "/mcp", { ...mcpHeaders(port, token), "mcp-session-id": quiet }, INITIALIZE);
    expect(stale.status).toBe(404);
    await worker.ok("session_status");
  });
});
