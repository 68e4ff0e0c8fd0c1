import { PassThrough } from "node:stream";
import { describe, expect, test } from "vitest";
import { StderrTail } from "../../../src/sessions/stderr-tail.js";

describe("StderrTail.drained", () => {
  test("resolves when the stream ends, with its last unterminated line in the tail", async () => {
    const stream = new PassThrough();
    const tail = new StderrTail();
    tail.follow(stream);
    let done = false;
    const drained = tail.drained(60_000).then(() => (done = true));
    stream.write("first\nlast words");
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    stream.end();
    await drained;
    expect(tail.snapshot()).toEqual(["first", "last words"]);
  });

  test("gives up after its deadline when the stream never ends", async () => {
    const tail = new StderrTail();
    tail.follow(new PassThrough());
    const started = performance.now();
    await tail.drained(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});
