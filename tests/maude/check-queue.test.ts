import { describe, expect, test } from "vitest";
import { CheckQueue } from "../../servers/maude/src/check-queue.js";
import { CheckScheduler } from "../../servers/maude/src/check-scheduler.js";
import type { CheckReport, DocumentSnapshot } from "../../servers/maude/src/checker.js";

/** A promise with its resolve exposed. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("CheckQueue", () => {
  test("runs at most `limit` at once, in arrival order", async () => {
    const q = new CheckQueue(2);
    const gates = [deferred<void>(), deferred<void>(), deferred<void>(), deferred<void>()];
    const order: number[] = [];
    let peak = 0;
    const runs = gates.map((g, i) =>
      q.run(async () => {
        order.push(i);
        peak = Math.max(peak, q.active);
        await g.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect([q.active, q.queued]).toEqual([2, 2]);
    gates[1]!.resolve();
    await runs[1];
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
  });

  test("a newcomer cannot take a slot that is being handed to a waiter", async () => {
    const q = new CheckQueue(1);
    const first = deferred<void>();
    const a = q.run(() => first.promise);
    const b = q.run(async () => q.active);
    first.resolve();
    await a;
    const c = q.run(async () => q.active);
    expect(await b).toBe(1);
    expect(await c).toBe(1);
  });

  test("a failing task frees its slot", async () => {
    const q = new CheckQueue(1);
    await expect(q.run(() => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await q.run(async () => "ok")).toBe("ok");
  });

  test("rejects a limit below 1", () => {
    expect(() => new CheckQueue(0)).toThrow(RangeError);
  });
});

describe("CheckScheduler", () => {
  const report = (snap: DocumentSnapshot): CheckReport => ({
    uri: snap.uri,
    version: snap.version,
    diagnostics: new Map(),
    failure: null,
    otherStderr: [],
    durationMs: 0,
  });
  const snap = (version: number, text = `v${version}`): DocumentSnapshot => ({ uri: "file:///a.maude", version, text });

  test("the same text shares one check; a queued check takes the newest text", async () => {
    const gate = deferred<void>();
    const seen: number[] = [];
    const q = new CheckQueue(1);
    const blocker = q.run(() => gate.promise); // keeps the queue busy
    const s = new CheckScheduler(q, async (sn) => {
      seen.push(sn.version ?? -1);
      return report(sn);
    });
    const p1 = s.request(snap(1));
    const p2 = s.request(snap(2));
    const p3 = s.request(snap(3));
    expect(p1).toBe(p2);
    expect(p2).toBe(p3);
    gate.resolve();
    await blocker;
    expect((await p1).version).toBe(3);
    expect(seen).toEqual([3]);
    expect(s.request(snap(3))).toBe(p1); // already checked: no new run
    await s.request(snap(3), true); // a save forces one
    expect(seen).toEqual([3, 3]);
  });
});
