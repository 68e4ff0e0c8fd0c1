import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { GateClock } from "../../helpers/proc.js";
import { writeLease } from "../../../src/sharing/lease-file.js";
import { findSharedServer, isServing } from "../../../src/sharing/lease-holder.js";
import { leasePaths, type LeasePaths } from "../../../src/sharing/lease-location.js";
import type { Lease } from "../../../src/sharing/lease-schema.js";
import { type Answer, BUILD, closedPort, deadIdentity, DIGEST, fakeServer, type FakeServer, leaseFor, probeOf, tempDir, VERSION } from "./fixture.js";

const key = { version: VERSION, build: BUILD, configDigest: DIGEST };
const soon = (): number => Date.now() + 5_000;

let servers: FakeServer[] = [];
let dir: string;
let cleanup: () => void;
let paths: LeasePaths;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  paths = leasePaths(join(dir, "bridge.toml"), dir, {});
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  cleanup();
});

/** A fake server and a lease naming it; `answer` gets the lease to build its probe answer. */
async function served(answer: (lease: Lease) => Answer, overrides: Partial<Lease> = {}): Promise<{ lease: Lease; server: FakeServer }> {
  let lease: Lease | undefined;
  const server = await fakeServer(() => answer(lease!));
  servers.push(server);
  lease = leaseFor(server.port, overrides);
  return { lease, server };
}

const healthy = (lease: Lease): Answer => ({ status: 200, body: probeOf(lease) });

describe("isServing", () => {
  test("a live owner whose server answers as the holder is serving; the probe carries the bearer token", async () => {
    const { lease, server } = await served(healthy);
    expect(await isServing(lease, key, soon())).toBe(true);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.method).toBe("GET");
    expect(server.seen[0]!.url).toBe("/lspmcp/lease");
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${lease.token}`);
    expect(server.seen[0]!.headers.host).toBe(`127.0.0.1:${server.port}`);
    expect(server.seen[0]!.headers.origin).toBeUndefined();
  });

  test("another version, build or config digest is not served to us, without asking the server", async () => {
    const { lease, server } = await served(healthy);
    expect(await isServing(lease, { ...key, version: "0.0.1" }, soon())).toBe(false);
    // The same version rebuilt (an upgrade from a checkout, a reinstall) is another build.
    expect(await isServing(lease, { ...key, build: "c".repeat(64) }, soon())).toBe(false);
    expect(await isServing(lease, { ...key, configDigest: "e".repeat(64) }, soon())).toBe(false);
    expect(server.seen).toHaveLength(0);
  });

  test("a dead owner is not serving, without asking the server", async () => {
    const dead = await deadIdentity();
    const { lease, server } = await served(healthy, { pid: dead.pid, start_time: dead.startTime });
    expect(await isServing(lease, key, soon())).toBe(false);
    expect(server.seen).toHaveLength(0);
  });

  test("a live pid with another start time (pid reuse) is not the owner", async () => {
    const { lease } = await served(healthy);
    expect(await isServing({ ...lease, start_time: lease.start_time + 1 }, key, soon())).toBe(false);
  });

  test("a server that says it is no longer the leaseholder is not serving", async () => {
    const { lease } = await served((l) => ({ status: 200, body: probeOf(l, false) }));
    expect(await isServing(lease, key, soon())).toBe(false);
  });

  test("a server that answers with another token, version, build or digest is not serving", async () => {
    for (const change of [{ token: "f".repeat(64) }, { version: "0.0.1" }, { build: "c".repeat(64) }, { config_digest: "e".repeat(64) }]) {
      const { lease } = await served((l) => ({ status: 200, body: { ...probeOf(l), ...change } }));
      expect(await isServing(lease, key, soon()), JSON.stringify(change)).toBe(false);
    }
  });

  test("a refusal, an error, non-JSON or a foreign answer is not serving", async () => {
    const answers: ((l: Lease) => Answer)[] = [
      () => ({ status: 401, body: { error: "Unauthorized" } }),
      (l) => ({ status: 500, body: probeOf(l) }),
      () => ({ status: 200, body: "<html>not json" }),
      (l) => ({ status: 200, body: { ...probeOf(l), kind: "something-else" } }),
      (l) => ({ status: 200, body: { ...probeOf(l), leaseholder: "yes" } }),
      () => ({ status: 200, body: null }),
    ];
    for (const answer of answers) {
      const { lease } = await served(answer);
      expect(await isServing(lease, key, soon())).toBe(false);
    }
  });

  test("nothing listening on the port is not serving", async () => {
    const lease = leaseFor(await closedPort());
    expect(await isServing(lease, key, soon())).toBe(false);
  });

  test("a server that never answers is not serving, and the deadline bounds the wait", async () => {
    const { lease } = await served(() => "hang");
    // The hanging server is this process too: the clock charges the wait past the deadline, net
    // of the time a loaded machine kept this process from a CPU.
    const clock = new GateClock();
    expect(await isServing(lease, key, clock.since + 300)).toBe(false);
    expect(clock.chargedMs()).toBeLessThan(1_500);
  });
});

describe("findSharedServer", () => {
  test("no lease file: none", async () => {
    expect(await findSharedServer(paths, key, soon())).toBeUndefined();
  });

  test("a corrupt lease file: none", async () => {
    writeFileSync(paths.lease, "{ torn");
    expect(await findSharedServer(paths, key, soon())).toBeUndefined();
  });

  test("a lease whose server is serving: that lease", async () => {
    const { lease } = await served(healthy);
    writeLease(paths.lease, lease);
    expect(await findSharedServer(paths, key, soon())).toEqual(lease);
  });

  test("a lease whose server is displaced: none", async () => {
    const { lease } = await served((l) => ({ status: 200, body: probeOf(l, false) }));
    writeLease(paths.lease, lease);
    expect(await findSharedServer(paths, key, soon())).toBeUndefined();
  });

  test("a lease for another build: none", async () => {
    const { lease } = await served(healthy, { version: "0.0.1" });
    writeLease(paths.lease, lease);
    expect(await findSharedServer(paths, key, soon())).toBeUndefined();
  });
});
