// The shared server's status endpoint, held open the way a local user could try (it listens on
// the loopback, where any user may connect): a connection that trickles its headers is closed
// after the headers' deadline, and past the connection cap a new one is closed at once.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { STATUS_HEADERS_TIMEOUT_MS, STATUS_MAX_CONNECTIONS, StatusHttpServer } from "../../src/shared-server/status-http-server.js";

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
let server: StatusHttpServer;
let port: number;

beforeAll(async () => {
  server = new StatusHttpServer({ token: "t".repeat(64), probe: () => ({}), status: () => ({}), logger: silent as never });
  port = Number(new URL(await server.listen()).port);
});

afterAll(() => server.close());

function opened(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

function closedWithin(socket: Socket, ms: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.on("error", () => {});
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

test("a connection that sends its headers a byte at a time is closed after the headers' deadline", async () => {
  const socket = await opened();
  const header = `GET /lspmcp/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${"a".repeat(100)}`;
  let sent = 0;
  const drip = setInterval(() => {
    if (!socket.destroyed && sent < header.length) socket.write(header[sent++]!);
  }, 100);
  try {
    expect(await closedWithin(socket, STATUS_HEADERS_TIMEOUT_MS + 4000)).toBeGreaterThan(STATUS_HEADERS_TIMEOUT_MS - 1000);
  } finally {
    clearInterval(drip);
    socket.destroy();
  }
}, 20_000);

test("past the connection cap a new connection is closed at once", async () => {
  const held: Socket[] = [];
  try {
    for (let i = 0; i < STATUS_MAX_CONNECTIONS; i++) held.push(await opened());
    expect(await closedWithin(await opened(), 2000)).toBeLessThan(2000);
  } finally {
    for (const socket of held) socket.destroy();
  }
});
