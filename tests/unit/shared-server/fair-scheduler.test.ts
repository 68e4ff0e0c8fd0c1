import { describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { BridgeError } from "../../../src/contract/errors.js";
import { FairScheduler, type PeerQueue } from "../../../src/shared-server/fair-scheduler.js";

const never = new AbortController().signal;
const later = (): Deadline => Deadline.in(60_000);

/** Admits `count` calls on `queue`, recording each admission's label in `order`. */
function flood(queue: PeerQueue, label: string, count: number, order: string[]): Promise<() => void>[] {
  return Array.from({ length: count }, (_, i) =>
    queue.admit(later(), never).then((release) => {
      order.push(`${label}${i}`);
      return release;
    }),
  );
}

describe("FairScheduler", () => {
  test("a queue never runs more than perPeer calls; the rest wait in order", async () => {
    const scheduler = new FairScheduler({ perPeer: 2, total: 10 });
    const order: string[] = [];
    const admitted = flood(scheduler.queue(), "a", 5, order);
    await Promise.resolve();
    expect(order).toEqual(["a0", "a1"]);
    expect(scheduler.stats()).toEqual({ running: 2, queued: 3, peers: 1 });
    (await admitted[0]!)();
    await admitted[2];
    expect(order).toEqual(["a0", "a1", "a2"]);
  });

  test("a flooding queue does not delay another queue's call: it runs at once when a slot is free", async () => {
    const scheduler = new FairScheduler({ perPeer: 1, total: 4 });
    const order: string[] = [];
    flood(scheduler.queue(), "a", 200, order);
    const b = scheduler.queue();
    await b.admit(later(), never);
    expect(order).toEqual(["a0"]);
    expect(b.running).toBe(1);
  });

  test("freed slots go round-robin between queues that wait, whatever order they queued in", async () => {
    const scheduler = new FairScheduler({ perPeer: 10, total: 1 });
    const order: string[] = [];
    const a = flood(scheduler.queue(), "a", 4, order);
    const b = flood(scheduler.queue(), "b", 2, order);
    const c = flood(scheduler.queue(), "c", 1, order);
    const all = [...a, ...b, ...c];
    for (let turn = 0; turn < all.length; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      const running = order.at(-1)!;
      const index = { a: 0, b: 4, c: 6 }[running[0] as "a" | "b" | "c"] + Number(running.slice(1));
      (await all[index]!)();
    }
    expect(order).toEqual(["a0", "b0", "c0", "a1", "b1", "a2", "a3"]);
  });

  test("a queued call keeps its deadline: Timeout while it waits, and it leaves the queue", async () => {
    const scheduler = new FairScheduler({ perPeer: 1, total: 1 });
    const queue = scheduler.queue();
    const first = await queue.admit(later(), never);
    const waiting = queue.admit(Deadline.in(30), never);
    await expect(waiting).rejects.toMatchObject({ code: "Timeout", details: { waiting_for: "a turn" } });
    expect(queue.queued).toBe(0);
    first();
    expect(scheduler.stats().running).toBe(0);
  });

  test("a queued call can be cancelled; one cancelled before it queues never runs", async () => {
    const scheduler = new FairScheduler({ perPeer: 1, total: 1 });
    const queue = scheduler.queue();
    const first = await queue.admit(later(), never);
    const controller = new AbortController();
    const waiting = queue.admit(later(), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: "Timeout", details: { cancelled: true } });
    await expect(queue.admit(later(), controller.signal)).rejects.toBeInstanceOf(BridgeError);
    expect(queue.queued).toBe(0);
    first();
    expect(scheduler.stats()).toEqual({ running: 0, queued: 0, peers: 1 });
  });

  test("a closed queue refuses its waiting calls and leaves the rotation; a release counts once", async () => {
    const scheduler = new FairScheduler({ perPeer: 1, total: 1 });
    const a = scheduler.queue();
    const b = scheduler.queue();
    const running = await a.admit(later(), never);
    const aWaiting = a.admit(later(), never);
    const bWaiting = b.admit(later(), never);
    a.close();
    await expect(aWaiting).rejects.toMatchObject({ code: "SessionDead" });
    running();
    running();
    const release = await bWaiting;
    expect(scheduler.stats()).toEqual({ running: 1, queued: 0, peers: 1 });
    release();
    await expect(a.admit(later(), never)).rejects.toMatchObject({ code: "SessionDead" });
  });
});
