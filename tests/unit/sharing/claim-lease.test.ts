import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { claimLease, holdsLease, releaseLease } from "../../../src/sharing/claim-lease.js";
import { readLease, writeLease } from "../../../src/sharing/lease-file.js";
import { prepareRuntimeFolder } from "../../../src/config/runtime-folder.js";
import { leasePaths, type LeasePaths } from "../../../src/sharing/lease-location.js";
import { acquireLock } from "../../../src/sharing/lease-lock.js";
import type { Lease } from "../../../src/sharing/lease-schema.js";
import { closedPort, deadIdentity, fakeServer, type FakeServer, leaseFor, newToken, probeOf, tempDir } from "./fixture.js";

const soon = (): number => Date.now() + 10_000;

let servers: FakeServer[] = [];
let cleanup: () => void;
let paths: LeasePaths;

beforeEach(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  paths = leasePaths(join(dir, "bridge.toml"), join(dir, "leases"), {});
  prepareRuntimeFolder(paths.dir);
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  cleanup();
});

/**
 * A stand-in shared server and its lease: like the real one it answers the probe with its own
 * token and says it is the leaseholder exactly while the lease file holds its token (unless `displaced`).
 */
async function candidate(overrides: Partial<Lease> = {}, displaced = false): Promise<Lease> {
  let lease: Lease | undefined;
  const server = await fakeServer(() => ({ status: 200, body: probeOf(lease!, !displaced && holdsLease(paths, lease!.token)) }));
  servers.push(server);
  lease = leaseFor(server.port, overrides);
  return lease;
}

function onDisk(): Lease | undefined {
  const read = readLease(paths.lease);
  return read.state === "present" ? read.lease : undefined;
}

describe("claimLease", () => {
  test("an election removes other configs' leases whose owner is gone, and keeps live ones", async () => {
    const other = leasePaths("/elsewhere/bridge.toml", paths.dir, {});
    const live = leasePaths("/live/bridge.toml", paths.dir, {});
    const dead = await deadIdentity();
    writeLease(other.lease, leaseFor(await closedPort(), { pid: dead.pid, start_time: dead.startTime }));
    writeLease(live.lease, leaseFor(await closedPort()));
    expect(await claimLease(paths, await candidate(), soon())).toEqual({ won: true });
    expect(readLease(other.lease).state).toBe("missing");
    expect(readLease(live.lease).state).toBe("present");
  });

  test("no lease: the candidate wins and its lease is on disk", async () => {
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: true });
    expect(onDisk()).toEqual(mine);
  });

  test("a live holder that answers as leaseholder keeps the lease; the candidate learns who holds it", async () => {
    const theirs = await candidate();
    writeLease(paths.lease, theirs);
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: false, holder: theirs });
    expect(onDisk()).toEqual(theirs);
  });

  test("a holder whose server says it is no longer the leaseholder is taken over", async () => {
    const theirs = await candidate({}, true);
    writeLease(paths.lease, theirs);
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: true });
    expect(onDisk()).toEqual(mine);
  });

  test("a lease whose owner process is gone is taken over", async () => {
    const dead = await deadIdentity();
    const theirs = await candidate({ pid: dead.pid, start_time: dead.startTime });
    writeLease(paths.lease, theirs);
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: true });
    expect(onDisk()).toEqual(mine);
  });

  test("a lease whose pid was reused (other start time) is taken over", async () => {
    const theirs = await candidate();
    writeLease(paths.lease, { ...theirs, start_time: theirs.start_time + 1 });
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: true });
  });

  test.each([
    ["empty", ""],
    ["whitespace", "\n  \n"],
    ["not JSON", "{ torn lease"],
    ["foreign JSON", JSON.stringify({ kind: "someone-elses-lease", pid: 1 })],
  ])("a %s lease file is replaced", async (_name, text) => {
    writeFileSync(paths.lease, text);
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: true });
    expect(onDisk()).toEqual(mine);
  });

  test("a live, answering holder of another version or config digest is replaced", async () => {
    for (const change of [{ version: "0.0.1" }, { config_digest: "e".repeat(64) }]) {
      const theirs = await candidate(change);
      writeLease(paths.lease, theirs);
      const mine = await candidate();
      expect(await claimLease(paths, mine, soon()), JSON.stringify(change)).toEqual({ won: true });
      expect(onDisk()).toEqual(mine);
    }
  });

  test("a holder whose server does not answer (port closed) is replaced", async () => {
    writeLease(paths.lease, leaseFor(await closedPort()));
    const mine = await candidate();
    expect(await claimLease(paths, mine, soon())).toEqual({ won: true });
    expect(onDisk()).toEqual(mine);
  });

  test("a claim with the token already on disk wins again", async () => {
    const mine = await candidate();
    writeLease(paths.lease, mine);
    const again = { ...mine, created_at: new Date(1).toISOString() };
    expect(await claimLease(paths, again, soon())).toEqual({ won: true });
    expect(onDisk()).toEqual(again);
  });

  test("two candidates at the same instant: exactly one wins, the other is told the winner", async () => {
    const [a, b] = [await candidate(), await candidate()];
    const [ca, cb] = await Promise.all([claimLease(paths, a, soon()), claimLease(paths, b, soon())]);
    expect([ca.won, cb.won].filter(Boolean)).toHaveLength(1);
    const [winner, loser] = ca.won ? [a, cb] : [b, ca];
    expect(loser).toEqual({ won: false, holder: winner });
    expect(onDisk()).toEqual(winner);
  });

  test("five candidates at once: one winner, four losers naming it", async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => candidate()));
    const claims = await Promise.all(all.map((lease) => claimLease(paths, lease, Date.now() + 30_000)));
    const winners = all.filter((_, i) => claims[i]!.won);
    expect(winners).toHaveLength(1);
    for (const claim of claims) if (!claim.won) expect(claim.holder).toEqual(winners[0]);
    expect(onDisk()).toEqual(winners[0]);
  });

  test("a deadline spent by the time the lock is taken never makes a healthy holder look gone", async () => {
    const theirs = await candidate();
    writeLease(paths.lease, theirs);
    // The lock is free, so flock takes it even with the deadline past; the probe must not then be
    // cut to ~1 ms and the holder replaced: losing or timing out are both fine, winning is not.
    const outcome = await claimLease(paths, await candidate(), Date.now() - 1).catch(() => "rejected" as const);
    expect(outcome === "rejected" || !outcome.won).toBe(true);
    expect(onDisk()).toEqual(theirs);
  });

  test("rejects, writing nothing, when the lock stays held past the deadline", async () => {
    const lock = await acquireLock(paths.lock, soon());
    try {
      const mine = await candidate();
      await expect(claimLease(paths, mine, Date.now() + 300)).rejects.toThrow(/timed out/);
      expect(readLease(paths.lease)).toEqual({ state: "missing" });
    } finally {
      await lock.release();
    }
  });
});

describe("releaseLease / holdsLease", () => {
  test("the holder releases its own lease", async () => {
    const mine = await candidate();
    await claimLease(paths, mine, soon());
    expect(holdsLease(paths, mine.token)).toBe(true);
    expect(await releaseLease(paths, mine.token, soon())).toBe(true);
    expect(readLease(paths.lease)).toEqual({ state: "missing" });
    expect(holdsLease(paths, mine.token)).toBe(false);
  });

  test("a displaced owner leaves its successor's lease alone", async () => {
    const successor = await candidate();
    writeLease(paths.lease, successor);
    const before = readFileSync(paths.lease, "utf8");
    const displacedToken = newToken();
    expect(holdsLease(paths, displacedToken)).toBe(false);
    expect(await releaseLease(paths, displacedToken, soon())).toBe(false);
    expect(readFileSync(paths.lease, "utf8")).toBe(before);
  });

  test("nothing to release when there is no lease, or a corrupt one (left as is)", async () => {
    const token = newToken();
    expect(await releaseLease(paths, token, soon())).toBe(false);
    writeFileSync(paths.lease, "garbage");
    expect(await releaseLease(paths, token, soon())).toBe(false);
    expect(readFileSync(paths.lease, "utf8")).toBe("garbage");
    expect(holdsLease(paths, token)).toBe(false);
  });

  test("after a release a new candidate wins", async () => {
    const first = await candidate();
    await claimLease(paths, first, soon());
    await releaseLease(paths, first.token, soon());
    const second = await candidate();
    expect(await claimLease(paths, second, soon())).toEqual({ won: true });
    expect(holdsLease(paths, second.token)).toBe(true);
    expect(holdsLease(paths, first.token)).toBe(false);
  });
});
