import { describe, expect, test, vi } from "vitest";
import { PeerTable, type Peer } from "../../../src/shared-server/peer-table.js";

/** A peer whose end() removes it from `table`, as the real session close does. */
function peer(table: () => PeerTable, sessionId: string, fields: Partial<Peer> = {}): Peer & { end: ReturnType<typeof vi.fn> } {
  const now = Date.now();
  const self = {
    sessionId,
    peerPid: 1,
    connectedAt: now,
    lastActivity: now,
    requests: 0,
    inFlight: 0,
    end: vi.fn(async () => table().remove(sessionId)),
    ...fields,
  };
  return self as Peer & { end: ReturnType<typeof vi.fn> };
}

describe("PeerTable", () => {
  test("tells its owner each count change, and only real changes", () => {
    const counts: number[] = [];
    const table = new PeerTable((count) => counts.push(count));
    table.add(peer(() => table, "a"));
    table.add(peer(() => table, "b"));
    table.remove("a");
    table.remove("a");
    table.remove("nobody");
    table.remove("b");
    expect(counts).toEqual([1, 2, 1, 0]);
    expect(table.size).toBe(0);
  });

  test("list shows peers in order of arrival, with ages from `now`", () => {
    const table = new PeerTable(() => {});
    table.add(peer(() => table, "a", { peerPid: 4242, requests: 3, connectedAt: 990_000, lastActivity: 995_000 }));
    table.add(peer(() => table, "b", { peerPid: 7, requests: 7, inFlight: 2, connectedAt: 999_000, lastActivity: 999_500 }));
    expect(table.list(1_000_000)).toEqual([
      { session: "a", peer_pid: 4242, connected_ms: 10_000, idle_ms: 5_000, requests: 3, in_flight: 0 },
      // A peer with a request running is not idle at all.
      { session: "b", peer_pid: 7, connected_ms: 1_000, idle_ms: 0, requests: 7, in_flight: 2 },
    ]);
  });

  test("list defaults to the current time", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const table = new PeerTable(() => {});
      table.add(peer(() => table, "a"));
      vi.advanceTimersByTime(300);
      expect(table.list()[0]).toMatchObject({ connected_ms: 300, idle_ms: 300 });
    } finally {
      vi.useRealTimers();
    }
  });

  test("endAll ends every peer", async () => {
    const table = new PeerTable(() => {});
    const a = peer(() => table, "a");
    const b = peer(() => table, "b", { inFlight: 1 });
    table.add(a);
    table.add(b);
    await table.endAll();
    expect(a.end).toHaveBeenCalledTimes(1);
    expect(b.end).toHaveBeenCalledTimes(1);
    expect(table.size).toBe(0);
  });
});
