// Who can reach `serve --http`: a network peer (an address beyond loopback only on purpose, with
// Host and Origin still held to the names the user gives) and a client that holds connections
// open (slow headers, too many connections). Each attack is made against the real binary.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, test } from "vitest";
import { childOutput } from "../helpers/child-output.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { type HttpBridge, startHttpBridge } from "../helpers/http-bridge.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }], "request_timeout_ms = 20000");
const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
const bridges: HttpBridge[] = [];
afterAll(async () => {
  await Promise.all(bridges.map((bridge) => bridge.close()));
});

/** `serve --http ADDRESS ...args`, which must end by itself: its exit code and stderr. */
async function refused(address: string, ...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, "serve", "--standalone", "--config", config, "--http", address, ...args], {
    env: { ...bridgeEnv(), XDG_RUNTIME_DIR: tempDir("lspmcp-run-") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A serve that listens instead never ends: killed after a while, its exit is a signal, not 2.
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const { code, stderr } = await childOutput(child);
  clearTimeout(timer);
  return { code, stderr };
}

/** POSTs a ping to `url` with exactly these headers (Host included); the status. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json", "content-length": String(PING.length), ...headers } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(PING);
  });
}

/** Resolves with how long `socket` stayed open (ms) once the server closed it, or rejects after `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
    socket.on("error", () => {});
  });
}

function opened(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("a network peer", () => {
  test("an address beyond loopback is refused without --allow-remote, and one on every interface without --allowed-host", async () => {
    const plain = await refused("0.0.0.0:0");
    expect(plain.code, plain.stderr).toBe(2);
    expect(plain.stderr).toContain("add --allow-remote");
    expect(plain.stderr).toContain("put TLS in front");
    const unnamed = await refused("0.0.0.0:0", "--allow-remote");
    expect(unnamed.code, unnamed.stderr).toBe(2);
    expect(unnamed.stderr).toContain("--allowed-host");
  });

  test("with --allow-remote, Host and Origin are held to loopback and the names given: anything else is 403", async () => {
    const bridge = await startHttpBridge(config, { address: "0.0.0.0:0", args: ["--allow-remote", "--allowed-host", "devbox.test"] });
    bridges.push(bridge);
    const port = new URL(bridge.url).port;
    const url = `http://127.0.0.1:${port}/mcp`;
    const auth = { authorization: `Bearer ${bridge.token}` };
    expect(await post(url, { ...auth, host: `devbox.test:${port}` })).toBe(200);
    expect(await post(url, { ...auth, host: `127.0.0.1:${port}` })).toBe(200);
    expect(await post(url, { ...auth, host: `attacker.example:${port}` })).toBe(403);
    expect(await post(url, { ...auth, host: `devbox.test:${port}`, origin: "http://devbox.test:3000" })).toBe(200);
    // A page elsewhere whose name rebinds to this machine: its Host and Origin are its own.
    expect(await post(url, { ...auth, host: `devbox.test:${port}`, origin: "http://attacker.example" })).toBe(403);
  });
});

describe("a client that holds connections open", () => {
  test("a connection that sends its headers a byte at a time is closed after the headers' deadline (10 s)", async () => {
    const bridge = await startHttpBridge(config);
    bridges.push(bridge);
    const socket = await opened(Number(new URL(bridge.url).port));
    const header = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(100)}`;
    let sent = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed && sent < header.length) socket.write(header[sent++]!);
    }, 200);
    try {
      const open = await closedWithin(socket, 14_000);
      expect(open).toBeGreaterThan(9_000);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  }, 30_000);

  test("past 256 open connections a new one is closed at once; once they go, requests are answered again", async () => {
    const bridge = await startHttpBridge(config);
    bridges.push(bridge);
    const port = Number(new URL(bridge.url).port);
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 256; i++) held.push(await opened(port));
      const extra = await opened(port);
      expect(await closedWithin(extra, 2_000)).toBeLessThan(2_000);
    } finally {
      for (const socket of held) socket.destroy();
    }
    const auth = { authorization: `Bearer ${bridge.token}` };
    let status = 0;
    for (const until = Date.now() + 5_000; status !== 200 && Date.now() < until; ) status = await post(bridge.url, auth).catch(() => 0);
    expect(status).toBe(200);
  }, 30_000);
});
