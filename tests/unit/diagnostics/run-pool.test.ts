import { getEventListeners } from "node:events";
import { describe, expect, test } from "vitest";
import { FirstFailure, runPool } from "../../../src/diagnostics/run/run-pool.js";

describe("runPool", () => {
  test("never runs more than the limit at once, and keeps item order", async () => {
    let running = 0;
    let peak = 0;
    const results = await runPool([5, 1, 4, 2, 3], 2, new FirstFailure(), async (n) => {
      peak = Math.max(peak, ++running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });

  test("after the first failure no item starts, and that failure is thrown", async () => {
    const started: number[] = [];
    const failure = new FirstFailure();
    const run = runPool([1, 2, 3, 4], 1, failure, async (n) => {
      started.push(n);
      if (n === 2) throw new Error("second");
      return n;
    });
    await expect(run).rejects.toThrow("second");
    expect(started).toEqual([1, 2]);
    expect(failure.signal.aborted).toBe(true);
  });

  test("the caller's abort is a cancellation failure that aborts every item signal, and item signals detach when done", async () => {
    const caller = new AbortController();
    const failure = new FirstFailure(caller.signal);
    const listening = () => getEventListeners(failure.signal, "abort").length;
    const before = listening();
    const done = failure.itemSignal();
    const live = failure.itemSignal();
    const unread = failure.itemSignal();
    const [doneSignal, liveSignal] = [done.signal, live.signal];
    // Made when first read: an item that sends nothing adds no listener to the run.
    expect(listening() - before).toBe(2);
    done.done();
    unread.done();
    expect(listening() - before).toBe(1);
    caller.abort();
    expect(liveSignal.aborted).toBe(true);
    // A finished item no longer listens: its signal is left as it was.
    expect(doneSignal.aborted).toBe(false);
    expect(() => failure.rethrow()).toThrow(expect.objectContaining({ code: "Timeout", details: { cancelled: true } }));
  });
});
