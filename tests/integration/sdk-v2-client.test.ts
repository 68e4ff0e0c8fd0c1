// The MCP TypeScript SDK's v2 client (@modelcontextprotocol/client 2.4.0), pinned to revision
// 2026-07-28, against `lspmcp serve` over stdio and over HTTP, standalone and shared, beside the
// SDK 1.32.2 client of 2025-11-25 on stdio: the same tools and the same answers. Fake servers.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { type HttpBridge, startHttpBridge } from "../helpers/http-bridge.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const SHARED = '\n[shared]\nlease_dir = "leases"\nlinger_ms = 200';
const SYMBOLS = { name: "document_symbols", arguments: { workspace: "ws", path: "a.fk" } };

describe.each(["standalone", "shared"] as const)("the SDK v2 client on %s serve", (mode) => {
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }], `request_timeout_ms = 20000${SHARED}`);
  const shared = mode === "shared";
  const clients: Client[] = [];
  /** The bridges started so far, each a peer of the shared server when shared. */
  const peers: { pid: number }[] = [];
  let old: Bridge;
  let http: HttpBridge;
  afterAll(async () => {
    for (const client of clients) await client.close();
    await http?.close();
    await old?.close();
  });

  async function modernClient(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
    const client = new Client({ name: "lspmcp-tests-v2", version: "0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  test.each(["stdio", "http"] as const)("over %s: negotiates 2026-07-28, lists with cache hints, and calls with the old client's answer", async (wire) => {
    old ??= await startBridge(config, {}, { shared });
    const args = ["serve", ...(shared ? [] : ["--standalone"]), "--config", config];
    const env = { ...bridgeEnv(), LSPMCP_LOG_LEVEL: "warn" };
    if (peers.length === 0) peers.push(old);
    if (wire === "http") http = await startHttpBridge(config, { shared });
    const transport =
      wire === "stdio"
        ? new StdioClientTransport({ command: process.execPath, args: [BRIDGE_MAIN, ...args], env, stderr: "ignore" })
        : new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${http.token}` } } });
    const client = await modernClient(transport);
    peers.push({ pid: transport instanceof StdioClientTransport ? transport.pid! : http.child.pid! });
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const list = await client.listTools();
    expect(list).toMatchObject({ cacheScope: "public", ttlMs: expect.any(Number) });
    expect(list.tools.map((tool) => tool.name)).toEqual((await old.client.listTools()).tools.map((tool) => tool.name));
    const modern = await client.callTool(SYMBOLS);
    expect(modern._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "lspmcp" });
    const legacy = await old.client.callTool(SYMBOLS);
    expect(JSON.stringify([modern.content, modern.structuredContent])).toBe(JSON.stringify([legacy.content, legacy.structuredContent]));
    // Shared, every bridge answered through one shared server: one that fell back to sessions of
    // its own would answer the same.
    if (shared) await expectAttached({ config }, peers);
  });
});
