// The peer socket: the shared server's door for attached lspmcp processes, and the forwarder's
// end of it, over a real Unix socket in a private folder.
import { subscribe } from "node:diagnostics_channel";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Logger } from "../../../src/contract/logger.js";
import { FairScheduler } from "../../../src/shared-server/fair-scheduler.js";
import { PeerTable } from "../../../src/shared-server/peer-table.js";
import { PeerSocketServer } from "../../../src/shared-server/peer-socket-server.js";
import { helloMessage } from "../../../src/mcp/socket-hello.js";
import { SocketUpstream } from "../../../src/attach/socket-upstream.js";

const TOKEN = "ab".repeat(32);
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
};

let dir: string;
let path: string;
let peers: PeerTable;
let counts: number[];
let server: PeerSocketServer;
let accepting: boolean;
let open: Socket[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "lspmcp-socket-"));
  path = join(dir, "bridge-test.1.sock");
  counts = [];
  accepting = true;
  open = [];
  peers = new PeerTable((count) => counts.push(count));
  server = socketServer(HELLO_TIMEOUT_MS);
  await server.listen(path);
});

// A peer's hello is never late in these tests, however busy the machine: only the silent client's
// own test has a server that waits a short time for it.
const HELLO_TIMEOUT_MS = 60_000;

function socketServer(helloTimeoutMs: number): PeerSocketServer {
  const scheduler = new FairScheduler({ perPeer: 4, total: 8 });
  return new PeerSocketServer({
    createMcpServer: () => {
      const mcp = new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: "text", text: `echo ${JSON.stringify(request.params.arguments)}` }] }));
      return mcp;
    },
    queue: () => scheduler.queue(),
    token: TOKEN,
    peers,
    accepting: () => accepting,
    logger: quiet,
    helloTimeoutMs,
  });
}

afterEach(async () => {
  for (const socket of open) socket.destroy();
  await server.close();
  await peers.endAll();
  rmSync(dir, { recursive: true, force: true });
});

// The client sockets this process opens, as node:net announces them, each with the moment it
// emits 'close', its last event: the forwarder's end keeps its socket private, and a test that
// asserts what did not happen waits for that end. (An emit calls every listener before the
// promise's continuation runs, so the code's own 'close' handling is done by then.)
// (Not events.once: it rejects on an 'error' first, as a connection to nothing has.)
const clientSockets: Promise<void>[] = [];
subscribe("net.client.socket", (message) =>
  clientSockets.push(new Promise((resolve) => (message as { socket: Socket }).socket.once("close", () => resolve()))),
);
const lastClientSocketClosed = (): Promise<void> => clientSockets.at(-1)!;

/** A raw client: what it has read (lines) and whether the server closed on it. */
async function connect(): Promise<{ socket: Socket; lines: any[]; raw: () => string; closed: Promise<void> }> {
  const socket = createConnection(path);
  open.push(socket);
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return {
    socket,
    raw: () => text,
    get lines() {
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
    closed,
  };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 5))) if (Date.now() - start > ms) throw new Error("timed out");
}

const line = (message: unknown): string => JSON.stringify(message) + "\n";

describe("the shared server's peer socket", () => {
  test("is a socket file only its owner may use", () => {
    expect(statSync(path).isSocket()).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("a hello with the token makes a peer; messages are framed by newlines however the bytes arrive", async () => {
    const client = await connect();
    // Hello and initialize in one write; then a call split byte by byte (a UTF-8 sequence included).
    client.socket.write(line(helloMessage(TOKEN, 4242)) + line(INITIALIZE));
    await until(() => client.lines.some((m) => m.id === 1));
    expect(client.lines[0].result.serverInfo.name).toBe("t");
    expect(peers.list()).toMatchObject([{ peer_pid: 4242 }]);
    const call = Buffer.from(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x", arguments: { text: "é中🙂" } } }));
    for (const byte of call) client.socket.write(Buffer.of(byte));
    await until(() => client.lines.some((m) => m.id === 2));
    expect(client.lines.find((m) => m.id === 2).result.content[0].text).toBe('echo {"text":"é中🙂"}');
    expect(peers.list()[0]).toMatchObject({ requests: 2, in_flight: 0 });
  });

  test("a wrong token or a first line that is not the hello is refused unanswered", async () => {
    const wrong = await connect();
    wrong.socket.write(line(helloMessage("cd".repeat(32), 1)) + line(INITIALIZE));
    await wrong.closed;
    const noHello = await connect();
    noHello.socket.write(line(INITIALIZE));
    await noHello.closed;
    const garbage = await connect();
    garbage.socket.write("{not json\n");
    await garbage.closed;
    for (const client of [wrong, noHello, garbage]) expect(client.raw()).toBe("");
    expect(counts).toEqual([]);
  });

  test("silence past the hello's time is refused unanswered", async () => {
    await server.close();
    server = socketServer(300);
    await server.listen(path);
    const silent = await connect();
    await silent.closed;
    expect(silent.raw()).toBe("");
    expect(counts).toEqual([]);
  });

  test("a line over 4 MiB before the hello ends the connection, unanswered and unbuffered", async () => {
    const client = await connect();
    client.socket.write(Buffer.alloc(4 * 1024 * 1024 + 10, 0x78));
    client.socket.write("\n");
    await client.closed;
    expect(client.raw()).toBe("");
  });

  test("a peer's line over 4 MiB is answered -32700 and the session goes on", async () => {
    const client = await connect();
    client.socket.write(line(helloMessage(TOKEN, 7)) + line(INITIALIZE));
    await until(() => client.lines.some((m) => m.id === 1));
    client.socket.write(
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "x", arguments: { big: "y".repeat(4 * 1024 * 1024) } } }) + "\n",
    );
    client.socket.write(line({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "x", arguments: {} } }));
    await until(() => client.lines.some((m) => m.id === 4));
    expect(client.lines.find((m) => m.error)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(client.lines.some((m) => m.id === 3)).toBe(false);
  });

  test("a peer that disconnects mid-message is gone from the table, and the socket stays open", async () => {
    const client = await connect();
    client.socket.write(line(helloMessage(TOKEN, 8)) + line(INITIALIZE));
    await until(() => client.lines.some((m) => m.id === 1));
    client.socket.write('{"jsonrpc":"2.0","id":5,"method":"tools/ca');
    client.socket.destroy();
    await until(() => peers.size === 0);
    expect(counts).toEqual([1, 0]);
    const next = await connect();
    next.socket.write(line(helloMessage(TOKEN, 9)) + line(INITIALIZE));
    await until(() => next.lines.some((m) => m.id === 1));
    expect(peers.size).toBe(1);
  });

  test("a server that takes no new peers refuses the hello", async () => {
    accepting = false;
    const client = await connect();
    client.socket.write(line(helloMessage(TOKEN, 10)) + line(INITIALIZE));
    await client.closed;
    expect(client.raw()).toBe("");
  });

  test("ending the peer closes its connection; closing the server removes the socket file", async () => {
    const client = await connect();
    client.socket.write(line(helloMessage(TOKEN, 11)) + line(INITIALIZE));
    await until(() => peers.size === 1 && client.lines.some((m) => m.id === 1));
    await peers.endAll();
    await client.closed;
    await server.close();
    expect(() => statSync(path)).toThrow();
  });
});

describe("the forwarder's end (SocketUpstream)", () => {
  test("sends the hello first, hands on each line the server writes, and reports the server's loss once", async () => {
    const lines: string[] = [];
    const lost: string[] = [];
    const upstream = await SocketUpstream.connect(
      path,
      TOKEN,
      (l) => lines.push(l),
      (reason) => lost.push(reason),
    );
    upstream.send(INITIALIZE as never);
    upstream.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x", arguments: { n: 1 } } });
    await until(() => lines.length === 2);
    expect(JSON.parse(lines[1]!).result.content[0].text).toBe('echo {"n":1}');
    expect(peers.list()[0]).toMatchObject({ peer_pid: process.pid });
    await peers.endAll();
    await until(() => lost.length >= 1);
    // 'close' is the socket's last event: once it has been handled, no report can follow.
    await lastClientSocketClosed();
    expect(lost).toHaveLength(1);
  });

  test("its own close is not a loss; nothing listening is a rejection", async () => {
    const lost: string[] = [];
    const upstream = await SocketUpstream.connect(
      path,
      TOKEN,
      () => {},
      (reason) => lost.push(reason),
    );
    await upstream.close();
    await lastClientSocketClosed();
    expect(lost).toEqual([]);
    await expect(
      SocketUpstream.connect(
        join(dir, "none.sock"),
        TOKEN,
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/ENOENT/);
  });
});
