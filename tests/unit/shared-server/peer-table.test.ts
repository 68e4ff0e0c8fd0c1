import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { PeerTable, type Peer } from "../../../src/shared-server/peer-table.js";

/** A peer whose end() removes it from `table`, as the real session close does. */
function peer(table: () => PeerTable, sessionId: string, fields: Partial<Peer> = {}): Peer & { end: ReturnType<typeof vi.fn> } {
  const now = Date.now();
  const self = {
    sessionId,
    peerPid: null,
    connectedAt: now,
    lastActivity: now,
    requests: 0,
    inFlight: 0,
    streams: 0,
    handle: async () => {},
    end: vi.fn(async () => table().remove(sessionId)),
    ...fields,
  };
  return self as Peer & { end: ReturnType<typeof vi.fn> };
}

describe("PeerTable (fake clock)", () => {
  let counts: number[];
  let table: PeerTable;

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    counts = [];
    table = new PeerTable(1_000, (count) => counts.push(count));
  });
  afterEach(async () => {
    await table.endAll();
    vi.useRealTimers();
  });

  test("tells its owner each count change, and only real changes", () => {
    table.add(peer(() => table, "a"));
    table.add(peer(() => table, "b"));
    table.remove("a");
    table.remove("a");
    table.remove("nobody");
    table.remove("b");
    expect(counts).toEqual([1, 2, 1, 0]);
    expect(table.size).toBe(0);
  });

  test("get finds a peer by session id", () => {
    const a = peer(() => table, "a");
    table.add(a);
    expect(table.get("a")).toBe(a);
    expect(table.get("b")).toBeUndefined();
    expect(table.size).toBe(1);
  });

  test("list shows peers in order of arrival, with ages from `now`", () => {
    table.add(peer(() => table, "a", { peerPid: 4242, requests: 3, streams: 1, connectedAt: 990_000, lastActivity: 995_000 }));
    table.add(peer(() => table, "b", { requests: 7, inFlight: 2, connectedAt: 999_000, lastActivity: 999_500 }));
    expect(table.list(1_000_000)).toEqual([
      { session: "a", peer_pid: 4242, connected_ms: 10_000, idle_ms: 5_000, requests: 3, in_flight: 0, streams: 1 },
      // A peer with a request running is not idle at all.
      { session: "b", peer_pid: null, connected_ms: 1_000, idle_ms: 0, requests: 7, in_flight: 2, streams: 0 },
    ]);
  });

  test("list defaults to the current time", () => {
    table.add(peer(() => table, "a"));
    vi.advanceTimersByTime(300);
    expect(table.list()[0]).toMatchObject({ connected_ms: 300, idle_ms: 300 });
  });

  test("a quiet peer is ended once idle for idleMs, not before", () => {
    const a = peer(() => table, "a");
    table.add(a);
    vi.advanceTimersByTime(999);
    expect(a.end).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(a.end).toHaveBeenCalledTimes(1);
    expect(table.size).toBe(0);
    expect(counts).toEqual([1, 0]);
  });

  test("activity pushes the end back", () => {
    const a = peer(() => table, "a");
    table.add(a);
    vi.advanceTimersByTime(800);
    a.lastActivity = Date.now();
    // Without the activity it would have been ended at 1000; now not before 1800 (swept every 250).
    vi.advanceTimersByTime(999);
    expect(a.end).not.toHaveBeenCalled();
    vi.advanceTimersByTime(250);
    expect(a.end).toHaveBeenCalledTimes(1);
  });

  test("a peer with an open event stream is never ended for idleness", () => {
    const a = peer(() => table, "a", { streams: 1 });
    table.add(a);
    vi.advanceTimersByTime(60_000);
    expect(a.end).not.toHaveBeenCalled();
    // The stream closes: idle from then on.
    a.streams = 0;
    a.lastActivity = Date.now();
    vi.advanceTimersByTime(999);
    expect(a.end).not.toHaveBeenCalled();
    vi.advanceTimersByTime(250);
    expect(a.end).toHaveBeenCalledTimes(1);
  });

  test("a peer with a request in flight is never ended for idleness", () => {
    const a = peer(() => table, "a", { inFlight: 1 });
    table.add(a);
    vi.advanceTimersByTime(60_000);
    expect(a.end).not.toHaveBeenCalled();
  });

  test("only the idle peer of several is ended", () => {
    const idle = peer(() => table, "idle");
    const streaming = peer(() => table, "streaming", { streams: 2 });
    const busy = peer(() => table, "busy", { inFlight: 1 });
    [idle, streaming, busy].forEach((p) => table.add(p));
    vi.advanceTimersByTime(5_000);
    expect(idle.end).toHaveBeenCalledTimes(1);
    expect(streaming.end).not.toHaveBeenCalled();
    expect(busy.end).not.toHaveBeenCalled();
    expect(table.list().map((p) => p.session)).toEqual(["streaming", "busy"]);
  });

  test("endAll ends every peer and stops the sweep", async () => {
    const a = peer(() => table, "a", { streams: 1 });
    const b = peer(() => table, "b", { inFlight: 1 });
    table.add(a);
    table.add(b);
    await table.endAll();
    expect(a.end).toHaveBeenCalledTimes(1);
    expect(b.end).toHaveBeenCalledTimes(1);
    expect(table.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("PeerTable sweep period", () => {
  afterEach(() => vi.useRealTimers());

  test("a long idleMs is still swept at least every 30 s", async () => {
    vi.useFakeTimers();
    const table = new PeerTable(600_000, () => {});
    const a = peer(() => table, "a");
    table.add(a);
    vi.advanceTimersByTime(599_999);
    expect(a.end).not.toHaveBeenCalled();
    vi.advanceTimersByTime(30_000);
    expect(a.end).toHaveBeenCalledTimes(1);
    await table.endAll();
  });

  test("real clock: a quiet peer is ended after a small idleMs", async () => {
    let table!: PeerTable;
    const started = Date.now();
    const ended = new Promise<number>((resolve) => {
      table = new PeerTable(100, () => {});
      table.add({ ...peer(() => table, "a"), end: vi.fn(async () => resolve(Date.now())) });
    });
    expect((await ended) - started).toBeGreaterThanOrEqual(100);
    await table.endAll();
  });
});
