// `lspmcp serve --http`: Streamable HTTP, stateless, both MCP revisions, standalone and shared,
// the same answers as over stdio; then what a hostile or careless HTTP client sends. Fake servers.
import { spawn, spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace, recordedMessages } from "../helpers/fake-config.js";
import { type HttpBridge, modernPost, startHttpBridge } from "../helpers/http-bridge.js";
import { BRIDGE_MAIN, REPO } from "../helpers/paths.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { pollUntil } from "../helpers/poll.js";
import { tempDir } from "../helpers/temp.js";
import { bridgeEnv } from "../helpers/tool-cache.js";
import { childOutput, type ChildOutput } from "../helpers/child-output.js";

const INSPECTOR = join(REPO, "node_modules/.bin/mcp-inspector");
const SHARED = '\n[shared]\nlease_dir = "leases"\nlinger_ms = 200';
const SYMBOLS = { name: "document_symbols", arguments: { workspace: "ws", path: "a.fk" } };

describe.each(["standalone", "shared"] as const)("serve --http, %s", (mode) => {
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }], `request_timeout_ms = 20000${SHARED}`);
  const shared = mode === "shared";
  let http: HttpBridge;
  let stdio: Bridge;
  let client: Client | undefined;
  afterAll(async () => {
    await client?.close();
    await http?.close();
    await stdio?.close();
  });

  test("the SDK 1.32.2 client (2025-11-25) lists and calls over HTTP: the same bytes as over stdio, no session id", async () => {
    http = await startHttpBridge(config, { shared });
    stdio = await startBridge(config, {}, { shared });
    client = new Client({ name: "http-old", version: "0" });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${http.token}` } } });
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    expect(JSON.stringify(await client.listTools())).toBe(JSON.stringify(await stdio.client.listTools()));
    expect(JSON.stringify(await client.callTool(SYMBOLS))).toBe(JSON.stringify(await stdio.client.callTool(SYMBOLS)));
    // Shared, both answered through one shared server, the HTTP one a peer as the stdio one is:
    // a serve that fell back to sessions of its own would answer the same.
    if (shared) await expectAttached({ config }, [{ pid: http.child.pid! }, stdio]);
  });

  test("the MCP Inspector CLI over HTTP: tools/list passes --strict; a call answers what stdio answers", async () => {
    const inspector = (args: string[]) =>
      spawnAsync(INSPECTOR, ["--cli", http.url, "--transport", "http", "--header", `Authorization: Bearer ${http.token}`, ...args]);
    const strict = await inspector(["--method", "tools/list", "--strict"]);
    expect(strict.code, strict.stderr).toBe(0);
    const call = await inspector(["--method", "tools/call", "--tool-name", "document_symbols", "--tool-arg", "workspace=ws", "path=a.fk"]);
    expect(call.code, call.stderr).toBe(0);
    const answer = JSON.parse(call.stdout);
    const legacy = await stdio.client.callTool(SYMBOLS);
    expect(JSON.stringify([answer.content, answer.structuredContent])).toBe(JSON.stringify([legacy.content, legacy.structuredContent]));
  });

  test("a 2026-07-28 client: no handshake, server/discover, tools/list with cache hints, a call whose answer is the stdio bytes plus resultType and serverInfo", async () => {
    const discover = modernPost(1, "server/discover");
    const found = await http.post(discover.message, discover.headers);
    expect(found.status).toBe(200);
    expect(found.headers.get("mcp-session-id")).toBeNull();
    expect(found.body.result).toMatchObject({ supportedVersions: ["2026-07-28"], resultType: "complete" });
    const list = modernPost(2, "tools/list");
    expect((await http.post(list.message, list.headers)).body.result).toMatchObject({ cacheScope: "public", ttlMs: expect.any(Number) });
    const call = modernPost(3, "tools/call", SYMBOLS);
    const answered = await http.post(call.message, call.headers);
    expect(answered.body.id).toBe(3);
    const { resultType, _meta, ...answer } = answered.body.result;
    expect(resultType).toBe("complete");
    expect(_meta["io.modelcontextprotocol/serverInfo"].name).toBe("lspmcp");
    expect(JSON.stringify(answer)).toBe(JSON.stringify(await stdio.client.callTool(SYMBOLS)));
    // Progress comes as an event stream with the client's own token, the answer last.
    const folder = modernPost(5, "tools/call", { name: "diagnostics", arguments: { workspace: "ws", path: "." }, _meta: { progressToken: "mine" } });
    const streamed = await http.post(folder.message, folder.headers);
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const events = (streamed.body as string)
      .split("\n\n")
      .filter((event) => event.startsWith("event: message\ndata: "))
      .map((event) => JSON.parse(event.slice("event: message\ndata: ".length)));
    expect(events.length).toBeGreaterThan(1);
    expect(events.slice(0, -1).every((event) => event.method === "notifications/progress" && event.params.progressToken === "mine")).toBe(true);
    expect(events.at(-1)).toMatchObject({ id: 5, result: { resultType: "complete" } });
    const wrong = modernPost(4, "tools/list");
    const mismatched = await http.post(wrong.message, { ...wrong.headers, "mcp-method": "tools/call" });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error.code).toBe(-32020);
  });
});

describe("serve --http against bad input", () => {
  const record = join(tempDir("lspmcp-record-"), "received.jsonl");
  const { config } = fakeWorkspace(
    [{ name: "fake", extension: ".fk", flags: ["--lsp", "--hover-delay", "4000", "--record", record] }],
    "request_timeout_ms = 30000",
  );
  let http: HttpBridge;
  afterAll(async () => http?.close());
  const hover = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "hover", arguments: { workspace: "ws", path: "a.fk", line: 1, column: 4 } },
  });

  test("the token file is made 0600; no token or a wrong one is 401 and runs nothing; a foreign Origin or Host is 403", async () => {
    http = await startHttpBridge(config);
    expect(statSync(http.tokenFile).mode & 0o777).toBe(0o600);
    expect((await http.post(hover(1), { authorization: "" })).status).toBe(401);
    expect((await http.post(hover(2), { authorization: `Bearer ${"0".repeat(http.token.length)}` })).status).toBe(401);
    expect((await http.post(hover(3), { origin: "http://evil.example.com" })).status).toBe(403);
    expect((await rawStatus(http.url, { host: "evil.example.com", authorization: `Bearer ${http.token}` })).status).toBe(403);
    // A page of this machine may call (with the token).
    expect((await http.post({ jsonrpc: "2.0", id: 5, method: "ping" }, { origin: "http://localhost:3000" })).status).toBe(200);
    expect(recordedMessages(record).filter((message) => message.method === "textDocument/hover")).toEqual([]);
  });

  test("malformed JSON is -32700, a batch -32600, GET 405; a notification is 202", async () => {
    const broken = await http.post("{not json");
    expect([broken.status, broken.body.error.code]).toEqual([400, -32700]);
    const batch = await http.post([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect([batch.status, batch.body.error.code]).toEqual([400, -32600]);
    expect((await fetch(http.url, { headers: { authorization: `Bearer ${http.token}` } })).status).toBe(405);
    expect((await http.post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
  });

  test("a 100 MB body is refused by its length before it is sent, and a streamed one as soon as it passes the bound", async () => {
    const declared = await rawStatus(http.url, { authorization: `Bearer ${http.token}`, "content-length": String(100 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    expect(declared.bodySent).toBe(0);
    // A client that asks first is told no at once, with no "100 Continue" before it.
    const asked = await rawStatus(http.url, { authorization: `Bearer ${http.token}`, "content-length": String(100 * 1024 * 1024), expect: "100-continue" });
    expect(asked.status).toBe(413);
    const streamed = await rawStatus(http.url, { authorization: `Bearer ${http.token}`, "transfer-encoding": "chunked" }, 100 * 1024 * 1024);
    // The 413, or — for a client too busy sending to read it before it passes four times the
    // bound (a loaded machine) — the cut-off that follows it.
    expect(streamed.status === 413 || streamed.reset, JSON.stringify(streamed)).toBe(true);
    expect(streamed.bodySent).toBeLessThan(100 * 1024 * 1024);
  });

  test("200 concurrent requests: each answered, or refused with a typed error; none lost", async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => http.post({ jsonrpc: "2.0", id: i, method: "tools/list" })));
    for (const [i, reply] of replies.entries()) {
      expect(reply.body.id).toBe(i);
      if (reply.status === 200) expect(reply.body.result.tools.length).toBeGreaterThan(0);
      else expect([reply.status, reply.body.error.code]).toEqual([503, -32001]);
    }
    expect(replies.filter((reply) => reply.status === 200).length).toBeGreaterThan(0);
  });

  test("a client that goes away mid-call cancels the call's work at the language server", async () => {
    const request = httpRequest(http.url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${http.token}` } });
    request.on("error", () => {});
    request.end(JSON.stringify(hover(9)));
    const hovers = () => recordedMessages(record).filter((message) => message.method === "textDocument/hover");
    expect(await pollUntil(() => hovers().length > 0, 20_000)).toBe(true);
    request.destroy();
    const hoverId = hovers()[0]!.id;
    expect(
      await pollUntil(() => recordedMessages(record).some((message) => message.method === "$/cancelRequest" && message.params?.id === hoverId), 10_000),
    ).toBe(true);
  });

  test("a port in use is exit 2", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const run = spawnSync(process.execPath, [BRIDGE_MAIN, "serve", "--standalone", "--config", config, "--http", `127.0.0.1:${port}`], {
      env: { ...bridgeEnv(), XDG_RUNTIME_DIR: tempDir("lspmcp-run-") },
      encoding: "utf8",
      timeout: 20_000,
    });
    taken.close();
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("EADDRINUSE");
  });
});

/**
 * POSTs by hand on a socket: the headers, then (when `bodyBytes`) a body of zeros in 64 KiB
 * writes until the server answers or closes. The status line, and how much body went out first.
 */
function rawStatus(url: string, headers: Record<string, string>, bodyBytes = 0): Promise<{ status: number; bodySent: number; reset: boolean }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = "";
    let sent = 0;
    let done = false;
    let reset = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0);
      if (status === 0 && !reset) reject(new Error(`no status line: ${answer}`));
      else resolve({ status, bodySent: sent, reset });
    };
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n\r\n")) finish();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      reset = error.code === "ECONNRESET" || error.code === "EPIPE";
      finish();
    });
    socket.on("close", finish);
    const head = { host: `${hostname}:${port}`, "content-type": "application/json", ...headers };
    socket.write(
      `POST ${pathname} HTTP/1.1\r\n${Object.entries(head)
        .map(([key, value]) => `${key}: ${value}\r\n`)
        .join("")}\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = (): void => {
      while (!done && sent < bodyBytes) {
        const piece =
          headers["transfer-encoding"] === "chunked" ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]) : chunk;
        sent += chunk.length;
        if (!socket.write(piece)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

/** Runs a program to its end; its exit code and output. */
function spawnAsync(command: string, args: readonly string[]): Promise<ChildOutput> {
  return childOutput(spawn(command, args, { cwd: tempDir(), stdio: ["ignore", "pipe", "pipe"] }));
}
