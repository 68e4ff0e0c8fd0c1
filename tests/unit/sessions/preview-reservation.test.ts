import { AsyncLocalStorage, executionAsyncId } from "node:async_hooks";
import { describe, expect, test } from "vitest";
import { Deadline } from "../../../src/contract/deadline.js";
import { PreviewReservation, previewHolding } from "../../../src/sessions/preview-reservation.js";

/**
 * Whether Node's promise hooks are on: with them, each continuation after an `await` runs as its
 * own async resource; without them, it keeps its caller's id.
 */
async function promiseHooksOn(): Promise<boolean> {
  await null;
  const first = executionAsyncId();
  await null;
  return executionAsyncId() !== first;
}

/**
 * Whether this Node's AsyncLocalStorage runs on promise hooks: Node 20 and 22 turn them on while a
 * storage is enabled; Node 24 keeps the store in its AsyncContextFrame and needs none, so there
 * is nothing to turn off again.
 */
async function storageUsesPromiseHooks(): Promise<boolean> {
  const probe = new AsyncLocalStorage<true>();
  const on = await probe.run(true, promiseHooksOn);
  probe.disable();
  return on;
}

const soon = () => Deadline.in(5_000);

describe("previewHolding", () => {
  test("the preview's own calls pass; a call from outside waits for its end", async () => {
    const reservation = new PreviewReservation("ws/server");
    let release!: () => void;
    const gate = new Promise<void>((open) => (release = open));
    // A chain started before the preview, and so no part of its run.
    const outside = (async () => {
      await gate;
      // Wrapped: the wait is itself a promise, which an async function's result would adopt.
      return { held: reservation.heldByAnother() };
    })();
    await previewHolding([reservation], soon(), async () => {
      expect(reservation.heldByAnother()).toBeNull();
      release();
      expect((await outside).held).not.toBeNull();
    });
    expect(reservation.heldByAnother()).toBeNull();
  });

  test("promise hooks are off again once no preview runs (on a Node whose storage turns them on), and the next preview still knows its own", async () => {
    const hooked = await storageUsesPromiseHooks();
    // `npm test` runs this file on Node 20 (the machine's), 22 and 24: the first two prove the
    // hooks turned off again, the third that none were needed.
    expect(hooked).toBe(Number(process.versions.node.split(".")[0]) < 24);
    expect(await promiseHooksOn()).toBe(false);
    const reservation = new PreviewReservation("ws/server");
    await previewHolding([reservation], soon(), async () => {
      expect(await promiseHooksOn()).toBe(hooked);
    });
    expect(await promiseHooksOn()).toBe(false);
    await previewHolding([reservation], soon(), async () => {
      await null;
      expect(reservation.heldByAnother()).toBeNull();
    });
    expect(await promiseHooksOn()).toBe(false);
  });

  test("a preview that ends while another runs leaves the other's own calls passing", async () => {
    const first = new PreviewReservation("a/server");
    const second = new PreviewReservation("b/server");
    let endFirst!: () => void;
    const firstRun = previewHolding([first], soon(), () => new Promise<void>((done) => (endFirst = done)));
    await previewHolding([second], soon(), async () => {
      endFirst();
      await firstRun;
      expect(second.heldByAnother()).toBeNull();
    });
    expect(await promiseHooksOn()).toBe(false);
  });
});
