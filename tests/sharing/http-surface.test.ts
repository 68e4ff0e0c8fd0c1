// The shared server's HTTP side as a status reader sees it: the lease probe and the status
// report with the lease's secret; everything else at the door is refused, and MCP is not spoken
// there (attached lspmcp processes come in through the peer socket).
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Bridge } from "../helpers/bridge.js";
import { leaseOf, SharedRun, sharedFixture, treeOf } from "./helpers/shared.js";

const run = new SharedRun();

afterEach(async () => {
  await run.cleanUp();
});

/** A shared server kept alive by one attached worker; its port and secret from the lease. */
async function sharedServer(): Promise<{ token: string; port: number; worker: Bridge }> {
  const fixture = run.use(sharedFixture());
  const worker = await run.attach();
  const lease = leaseOf(fixture)!;
  run.seen.push(...treeOf(lease.pid));
  return { token: lease.token, port: Number(new URL(lease.url).port), worker };
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

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

function goodHeaders(port: number, token: string): Record<string, string> {
  return { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
}

describe("the shared server's HTTP door", () => {
  it("answers the probe and the status, with the attached worker among the peers", async () => {
    const { port, token, worker } = await sharedServer();
    const probe = await raw(port, "GET", "/lspmcp/lease", goodHeaders(port, token));
    expect(probe.status).toBe(200);
    expect(JSON.parse(probe.body)).toMatchObject({ kind: "lspmcp-shared", token, leaseholder: true });
    const status = await raw(port, "GET", "/lspmcp/status", goodHeaders(port, token));
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body).peers.map((peer: { peer_pid: number }) => peer.peer_pid)).toEqual([worker.pid]);
  });

  it("refuses a foreign Host (DNS rebinding), any Origin, and a missing or wrong secret", async () => {
    const { port, token } = await sharedServer();
    const good = goodHeaders(port, token);
    expect((await raw(port, "GET", "/lspmcp/status", { ...good, host: `evil.example:${port}` })).status).toBe(403);
    expect((await raw(port, "GET", "/lspmcp/status", { ...good, host: `127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await raw(port, "GET", "/lspmcp/status", { ...good, origin: "http://evil.example" })).status).toBe(403);
    const { authorization: _, ...anonymous } = good;
    expect((await raw(port, "GET", "/lspmcp/status", anonymous)).status).toBe(401);
    expect((await raw(port, "GET", "/lspmcp/lease", { ...good, authorization: "Bearer wrong" })).status).toBe(401);
    // The well-formed request is let in.
    expect((await raw(port, "GET", "/lspmcp/status", { ...good, host: `localhost:${port}` })).status).toBe(200);
  });

  it("speaks no MCP: an initialize finds no endpoint, and the door goes on serving", async () => {
    const { port, token, worker } = await sharedServer();
    const initialize = await raw(port, "POST", "/mcp", goodHeaders(port, token), INITIALIZE);
    expect(initialize.status).toBe(404);
    expect(initialize.headers["mcp-session-id"]).toBeUndefined();
    expect((await raw(port, "POST", "/lspmcp/status", goodHeaders(port, token), INITIALIZE)).status).toBe(405);
    const status = JSON.parse((await raw(port, "GET", "/lspmcp/status", goodHeaders(port, token))).body);
    expect(status.peers).toHaveLength(1);
    await worker.ok("session_status");
  });
});
