import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Lease } from "../../../src/sharing/lease-schema.js";
import { identify } from "../../../src/supervision/proc-table.js";

/** A fresh temp folder; `cleanup` removes it. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-sharing-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const VERSION = "9.9.9-test";
export const DIGEST = "d".repeat(64);
export const BUILD = "b".repeat(64);

export function newToken(): string {
  return randomBytes(32).toString("hex");
}

/** A valid lease owned by this very process (alive, real start time), pointing at `port`. */
export function leaseFor(port: number, overrides: Partial<Lease> = {}): Lease {
  const self = identify(process.pid);
  if (!self) throw new Error("cannot identify the test process");
  return {
    kind: "lspmcp-lease",
    token: newToken(),
    pid: self.pid,
    start_time: self.startTime,
    url: `http://127.0.0.1:${port}`,
    version: VERSION,
    build: BUILD,
    config_digest: DIGEST,
    config_path: "/nowhere/bridge.toml",
    created_at: new Date(0).toISOString(),
    ...overrides,
  };
}

export interface FakeServer {
  readonly port: number;
  /** Headers of every request seen, with its method and url. */
  readonly seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** What a fake shared server answers: a status and a JSON body, or "hang" to never answer. */
export type Answer = { status: number; body: unknown } | "hang";

/** A tiny HTTP server on 127.0.0.1 standing in for a shared server's probe endpoint. */
export async function fakeServer(answer: () => Answer): Promise<FakeServer> {
  const seen: FakeServer["seen"] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    const result = answer();
    if (result === "hang") return;
    const text = typeof result.body === "string" ? result.body : JSON.stringify(result.body);
    response.writeHead(result.status, { "content-type": "application/json" });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The probe answer a healthy shared server gives for `lease`. */
export function probeOf(
  lease: Lease,
  leaseholder = true,
): { kind: string; token: string; version: string; build: string; config_digest: string; leaseholder: boolean } {
  return { kind: "lspmcp-shared", token: lease.token, version: lease.version, build: lease.build, config_digest: lease.config_digest, leaseholder };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The identity of a process that has exited (and been reaped): a dead owner. */
export async function deadIdentity(): Promise<{ pid: number; startTime: number }> {
  const { spawn } = await import("node:child_process");
  const child = spawn("sleep", ["1000"], { stdio: "ignore" });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  const id = identify(child.pid!);
  if (!id) throw new Error("cannot identify the child");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  await exited;
  return id;
}
