// `lspmcp status` and a lease whose server is no longer what listens on its port: a loopback HTTP
// service (in this test process) takes the port and logs every request that reaches it, and
// answers as a shared server would. status must send it nothing (the request would carry the
// lease's bearer token) and print nothing of what it says.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createSocketServer, type Server as SocketServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { leasePaths } from "../../src/sharing/lease-location.js";
import { peerSocketPath } from "../../src/sharing/peer-socket-path.js";
import { identify } from "../../src/supervision/proc-table.js";
import { childOutput } from "../helpers/child-output.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { bridgeEnv } from "../helpers/tool-cache.js";
import { deadIdentity, leaseFor } from "../unit/sharing/fixture.js";

const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }]);
const xdg = tempDir("lspmcp-run-");
const paths = leasePaths(config, null, { XDG_RUNTIME_DIR: xdg });
/** What the listener logged: every request's method, path and Authorization header. */
const seen: string[] = [];
let listener: Server;
let port: number;
let sleeper: ChildProcess;
let socket: SocketServer | undefined;

beforeAll(async () => {
  mkdirSync(paths.dir, { mode: 0o700 });
  listener = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? "-"}`);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ server: { pid: 1, url: "LISTENER-SAYS-HI", version: "x", build: "x", leaseholder: true }, peers: [], sessions: [] }));
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as AddressInfo).port;
  sleeper = spawn("sleep", ["1000"], { stdio: "ignore" });
  await new Promise((resolve) => sleeper.once("spawn", resolve));
});

afterAll(async () => {
  sleeper.kill("SIGKILL");
  socket?.close();
  await new Promise((resolve) => listener.close(resolve));
});

async function status(): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, "status", "--config", config], {
    env: { ...bridgeEnv(), XDG_RUNTIME_DIR: xdg },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { code, stdout } = await childOutput(child);
  return { code, stdout };
}

describe("status and a lease whose port another program now holds", () => {
  test("the lease's owner is gone: nothing reaches the port, nothing it says is printed", async () => {
    const dead = await deadIdentity();
    writeFileSync(paths.lease, JSON.stringify(leaseFor(port, { pid: dead.pid, start_time: dead.startTime })), { mode: 0o600 });
    const run = await status();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`stale lease: its owner, pid ${dead.pid}, is gone`);
    expect(run.stdout).not.toContain("LISTENER-SAYS-HI");
    expect(seen).toEqual([]);
  });

  test("the owner is alive but is no shared server of this user's (no peer socket beside the lease): nothing reaches the port", async () => {
    // This very test process: alive, and the one that listens on the port.
    writeFileSync(paths.lease, JSON.stringify(leaseFor(port)), { mode: 0o600 });
    const run = await status();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`pid ${process.pid} has no peer socket of this user's`);
    expect(run.stdout).not.toContain("LISTENER-SAYS-HI");
    expect(seen).toEqual([]);
  });

  test("the owner is alive with its peer socket, but the port is another process's: nothing reaches the port", async () => {
    const owner = identify(sleeper.pid!)!;
    const path = peerSocketPath(paths, owner.pid);
    rmSync(path, { force: true });
    socket = createSocketServer();
    await new Promise<void>((resolve) => socket!.listen(path, resolve));
    writeFileSync(paths.lease, JSON.stringify(leaseFor(port, { pid: owner.pid, start_time: owner.startTime })), { mode: 0o600 });
    const run = await status();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`port ${port} is not held by pid ${owner.pid}`);
    expect(run.stdout).not.toContain("LISTENER-SAYS-HI");
    expect(seen).toEqual([]);
  });
});
