import { executionAsyncId } from "node:async_hooks";
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

  test("promise hooks are off again once no preview runs, and the next preview still knows its own", async () => {
    const reservation = new PreviewReservation("ws/server");
    await previewHolding([reservation], soon(), async () => {
      expect(await promiseHooksOn()).toBe(true);
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
