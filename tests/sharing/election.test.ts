// The election over real processes: simultaneous starts, stale leases of every kind, and a lease
// folder that cannot be written.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { packageVersion } from "../../src/cli/package-version.js";
import { installedBuild } from "../../src/sharing/build-identity.js";
import { configDigest } from "../../src/config/config-digest.js";
import { leasePaths } from "../../src/sharing/lease-location.js";
import type { Bridge } from "../helpers/bridge.js";
import { GateClock, holdsWithin } from "../helpers/gate-clock.js";
import { allProcs, proc, waitForExit } from "../helpers/proc.js";
import { requireBinary } from "../helpers/require-binary.js";
import { leaseOf, SharedRun, sharedFixture, sharedServers, treeOf, tsServers } from "./helpers/shared.js";

const run = new SharedRun();

let fakes: Server[] = [];

afterEach(async () => {
  for (const fake of fakes) fake.closeAllConnections(), fake.close();
  fakes = [];
  await run.cleanUp();
});

/** Writes `text` where the fixture's config keeps its lease. */
function plantLease(text: string): void {
  mkdirSync(run.fixture!.leaseDir, { recursive: true, mode: 0o700 });
  writeFileSync(leasePaths(run.fixture!.config, run.fixture!.leaseDir).lease, text, { mode: 0o600 });
}

/** A lease naming this (live) test process, as a foreign or stale holder would look. */
function liveForeignLease(url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const me = proc(process.pid)!;
  return {
    kind: "lspmcp-lease",
    token: "ab".repeat(32),
    pid: me.pid,
    start_time: Number(me.startTime),
    url,
    version: packageVersion(),
    build: installedBuild(),
    config_digest: "0".repeat(64),
    config_path: run.fixture!.config,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

/** A loopback HTTP server that answers every request with `body` (or never, when body is null). */
async function fakeServer(body: unknown): Promise<string> {
  const server = createServer((_request, response) => {
    if (body !== null) response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  fakes.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** After a takeover: one live shared server holds a fresh lease, and tools answer through it. */
async function expectTakenOver(worker: Bridge): Promise<void> {
  const symbols = await worker.ok<{ items: { name: string }[] }>("document_symbols", { path: "src/greet.ts" });
  expect(symbols.items.map((item) => item.name)).toContain("greet");
  const lease = leaseOf(run.fixture!)!;
  expect(lease.pid).not.toBe(process.pid);
  expect(sharedServers(run.fixture!).map((p) => p.pid)).toEqual([lease.pid]);
  run.seen.push(...treeOf(lease.pid));
}

describe("election", () => {
  it.each([1, 2, 3])("two clients starting at the same instant end with exactly one shared server (run %i)", async () => {
    requireBinary("flock");
    requireBinary("setsid");
    const fixture = run.use(sharedFixture());
    const pair = await Promise.all([run.attach(), run.attach()]);
    // The loser of the election reports the winner and exits; the winner stays (5 s, net of the
    // time a loaded machine kept the servers from a CPU).
    const clock = new GateClock(sharedServers(fixture).map((p) => p.pid));
    expect(await holdsWithin(() => sharedServers(fixture).length === 1, clock, 5000)).toBe(true);
    const servers = sharedServers(fixture);
    expect(leaseOf(fixture)!.pid).toBe(servers[0]!.pid);
    await Promise.all(pair.map((worker) => worker.ok("document_symbols", { path: "src/greet.ts" })));
    const tree = treeOf(servers[0]!.pid);
    run.seen.push(...tree);
    expect(tsServers(tree)).toHaveLength(1);
  });

  for (const [kind, text] of [
    ["empty", ""],
    ["corrupt", '{"kind":"lspmcp-lease","tok'],
    ["foreign", JSON.stringify({ owner: "someone else", port: 8080 })],
  ] as const) {
    it(`a ${kind} lease is taken over`, async () => {
      run.use(sharedFixture());
      plantLease(text);
      await expectTakenOver(await run.attach());
    });
  }

  it("a lease whose owner is alive but answers as another lspmcp version is taken over", async () => {
    const fixture = run.use(sharedFixture());
    const config = await loadConfig(fixture.config);
    const url = await fakeServer({
      kind: "lspmcp-shared",
      token: "ab".repeat(32),
      version: "0.0.0-older",
      build: installedBuild(),
      config_digest: configDigest(config),
      leaseholder: true,
    });
    plantLease(JSON.stringify(liveForeignLease(url, { version: "0.0.0-older", config_digest: configDigest(config) })));
    await expectTakenOver(await run.attach());
  });

  it("a lease of the same version but another build (a rebuild, a reinstall) is taken over", async () => {
    const fixture = run.use(sharedFixture());
    const config = await loadConfig(fixture.config);
    const other = "e".repeat(64);
    const url = await fakeServer({
      kind: "lspmcp-shared",
      token: "ab".repeat(32),
      version: packageVersion(),
      build: other,
      config_digest: configDigest(config),
      leaseholder: true,
    });
    plantLease(JSON.stringify(liveForeignLease(url, { build: other, config_digest: configDigest(config) })));
    await expectTakenOver(await run.attach());
  });

  it("a lease of the same build and config whose server does not answer is taken over", async () => {
    const fixture = run.use(sharedFixture());
    const config = await loadConfig(fixture.config);
    const url = await fakeServer(null);
    plantLease(JSON.stringify(liveForeignLease(url, { config_digest: configDigest(config) })));
    await expectTakenOver(await run.attach());
  });

  it("a lease whose owner process is gone is taken over", async () => {
    const fixture = run.use(sharedFixture());
    const config = await loadConfig(fixture.config);
    const url = await fakeServer({
      kind: "lspmcp-shared",
      token: "ab".repeat(32),
      version: packageVersion(),
      build: installedBuild(),
      config_digest: configDigest(config),
      leaseholder: true,
    });
    // A pid that is not running (the highest pid is far above any live one here) with a start time.
    const dead = Math.max(...allProcs().map((p) => p.pid)) + 100_000;
    plantLease(JSON.stringify(liveForeignLease(url, { pid: dead, config_digest: configDigest(config) })));
    await expectTakenOver(await run.attach());
  });

  it("after the config changes, a new serve never attaches to the old server: it takes the lease, the old one keeps its peer", async () => {
    const fixture = run.use(sharedFixture());
    const old = await run.attach();
    await old.ok("document_symbols", { path: "src/greet.ts" });
    const first = leaseOf(fixture)!;
    run.seen.push(...treeOf(first.pid));
    writeFileSync(fixture.config, readFileSync(fixture.config, "utf8").replace("linger_ms = 200", "linger_ms = 300"));

    const fresh = await run.attach();
    await fresh.ok("document_symbols", { path: "src/greet.ts" });
    const second = leaseOf(fixture)!;
    expect(second.pid).not.toBe(first.pid);
    expect(second.config_digest).not.toBe(first.config_digest);
    run.seen.push(...treeOf(second.pid));
    // The displaced server still answers its own peer, and leaves its successor's lease alone when it ends.
    await old.ok("document_symbols", { path: "src/greet.ts" });
    await old.close();
    expect(await waitForExit(first.pid)).toBe(true);
    expect(leaseOf(fixture)!.pid).toBe(second.pid);
    await fresh.ok("session_status");
  });

  it("an unwritable lease folder degrades to standalone: the bridge serves with its own sessions", async () => {
    // /proc refuses new folders even to root, unlike a chmod.
    const fixture = run.use(sharedFixture({ lease_dir: "/proc/lspmcp-leases" }));
    const worker = await run.attach({ attached: false });
    const symbols = await worker.ok<{ items: { name: string }[] }>("document_symbols", { path: "src/greet.ts" });
    expect(symbols.items.map((item) => item.name)).toContain("greet");
    expect(sharedServers(fixture)).toEqual([]);
    // Standalone: the language server runs under this bridge itself.
    const own = allProcs().filter((p) => p.ppid === worker.pid);
    expect(own.length).toBeGreaterThan(0);
    const tree = treeOf(worker.pid);
    run.seen.push(...tree);
    expect(tsServers(tree)).toHaveLength(1);
  });
});
