// Both MCP revisions on one `lspmcp serve` over stdio, standalone and shared: a 2026-07-28 client
// (no handshake, the envelope in every request's `_meta`; raw JSON-RPC: no SDK of that revision is
// pinned here) beside the SDK 1.32.2 client of 2025-11-25, on fake language servers.
import { afterAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { RawBridge } from "../helpers/raw-mcp.js";
import { expectAttached } from "../helpers/shared-attachment.js";

const SHARED = '\n[shared]\nlease_dir = "leases"\nlinger_ms = 200';
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

describe.each(["standalone", "shared"] as const)("MCP revision 2026-07-28 on %s serve", (mode) => {
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fk", flags: [] }], `request_timeout_ms = 20000${SHARED}`);
  const shared = mode === "shared";
  let modern: RawBridge;
  let old: Bridge;
  afterAll(async () => {
    await modern?.close();
    await old?.close();
  });

  test("a first tools/call needs no handshake; its answer is the old client's, byte for byte, plus resultType and serverInfo", async () => {
    modern = new RawBridge(config, { shared });
    old = await startBridge(config, {}, { shared });
    const args = { workspace: "ws", path: "a.fk" };
    const { message } = await modern.response(modern.modernRequest("tools/call", { name: "document_symbols", arguments: args }), 60_000);
    if (!message.result) throw new Error(JSON.stringify(message));
    const { resultType, _meta, ...answer } = message.result;
    expect(resultType).toBe("complete");
    expect(_meta[SERVER_INFO]).toEqual({ name: "lspmcp", version: expect.any(String) });
    expect(answer.structuredContent.items.map((item: { name: string }) => item.name)).toEqual(["alpha", "beta"]);
    const oldAnswer = await old.client.callTool({ name: "document_symbols", arguments: args });
    expect(JSON.stringify(answer)).toBe(JSON.stringify(oldAnswer));
    // A tool's own error result is the same too.
    const bad = { workspace: "nowhere", path: "a.fk" };
    const { message: failed } = await modern.response(modern.modernRequest("tools/call", { name: "document_symbols", arguments: bad }));
    const { resultType: _t, _meta: _m, ...failure } = failed.result;
    expect(JSON.stringify(failure)).toBe(JSON.stringify(await old.client.callTool({ name: "document_symbols", arguments: bad })));
    // Shared, both answered through one shared server: a serve that fell back to sessions of its
    // own would answer the same and prove nothing of the shared path.
    if (shared) await expectAttached({ config }, [modern, old]);
  });

  test("server/discover, tools/list with cache hints in the old list's order, ping; no logging notification ever", async () => {
    const discover = (await modern.response(modern.modernRequest("server/discover"))).message.result;
    expect(discover).toMatchObject({ supportedVersions: ["2026-07-28"], capabilities: { tools: { listChanged: false } }, resultType: "complete" });
    expect(discover._meta[SERVER_INFO].name).toBe("lspmcp");
    const list = (await modern.response(modern.modernRequest("tools/list"))).message.result;
    expect(list).toMatchObject({ ttlMs: expect.any(Number), cacheScope: "public", resultType: "complete" });
    expect(list.ttlMs).toBeGreaterThan(0);
    const oldList = await old.client.listTools();
    expect(JSON.stringify(list.tools)).toBe(JSON.stringify(oldList.tools));
    const again = (await modern.response(modern.modernRequest("tools/list"))).message.result;
    expect(JSON.stringify(again)).toBe(JSON.stringify(list));
    expect((await modern.response(modern.modernRequest("ping"))).message.result.resultType).toBe("complete");
    const logLevel = { "io.modelcontextprotocol/logLevel": "debug" };
    await modern.response(modern.modernRequest("tools/call", { name: "session_status", arguments: {}, _meta: logLevel }));
    expect(modern.messages.filter(({ message }) => message.method === "notifications/message")).toEqual([]);
  });

  test("a version lspmcp does not speak is -32022 naming the supported ones; a malformed envelope -32602; an old client's answers carry neither resultType nor _meta", async () => {
    const unsupported = (await modern.response(modern.modernRequest("tools/list", {}, "2099-01-01"))).message;
    expect(unsupported.error).toEqual({
      code: -32022,
      message: "Unsupported protocol version: 2099-01-01",
      data: { supported: ["2026-07-28"], requested: "2099-01-01" },
    });
    const id = modern.request("tools/call", { name: "session_status", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
    expect((await modern.response(id)).message.error.code).toBe(-32602);
    const status = await old.client.callTool({ name: "session_status", arguments: {} });
    expect(status).not.toHaveProperty("resultType");
    expect(status).not.toHaveProperty("_meta");
  });

  test("progress notifications flow on a 2026 request; the answer follows them", async () => {
    const id = modern.modernRequest("tools/call", { name: "diagnostics", arguments: { workspace: "ws", path: "." }, _meta: { progressToken: "p26" } });
    const response = await modern.response(id, 60_000);
    expect(response.message.result.resultType).toBe("complete");
    const notes = modern.messages.filter(({ message }) => message.method === "notifications/progress" && message.params.progressToken === "p26");
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every(({ index }) => index < response.index)).toBe(true);
  });
});
