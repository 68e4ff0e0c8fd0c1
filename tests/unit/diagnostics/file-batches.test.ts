import { describe, expect, test } from "vitest";
import { runFileBatches } from "../../../src/diagnostics/run/file-batches.js";
import { FirstFailure } from "../../../src/diagnostics/run/run-pool.js";

/** Runs ten files of which the first takes longest; returns the order files start and end in. */
async function order(together: boolean): Promise<string[]> {
  const events: string[] = [];
  const items = Array.from({ length: 10 }, (_, i) => i);
  await runFileBatches(items, { batchSize: 4, close: false, together }, new FirstFailure(), async (item, documents) => {
    expect(documents).toBeUndefined();
    events.push(`start ${item}`);
    // File 0 is slow: a few turns of the event loop, the others one.
    for (let turn = 0; turn < (item === 0 ? 5 : 1); turn++) await new Promise((done) => setImmediate(done));
    events.push(`end ${item}`);
  });
  return events;
}

describe("runFileBatches", () => {
  test("a batch at a time: no file of the next batch starts before every file of this one has ended", async () => {
    const events = await order(true);
    const lastEnd = (batch: number[]) => Math.max(...batch.map((i) => events.indexOf(`end ${i}`)));
    const firstStart = (batch: number[]) => Math.min(...batch.map((i) => events.indexOf(`start ${i}`)));
    expect(firstStart([4, 5, 6, 7])).toBeGreaterThan(lastEnd([0, 1, 2, 3]));
    expect(firstStart([8, 9])).toBeGreaterThan(lastEnd([4, 5, 6, 7]));
    expect(events.filter((event) => event.startsWith("end"))).toHaveLength(10);
  });

  test("otherwise a file starts as soon as another ends: the slow one holds nothing back", async () => {
    const events = await order(false);
    expect(events.indexOf("start 4")).toBeLessThan(events.indexOf("end 0"));
    expect(events.filter((event) => event.startsWith("end"))).toHaveLength(10);
  });

  test("the first failure stops the run: no later batch starts, and it is thrown", async () => {
    const started: number[] = [];
    const run = runFileBatches([0, 1, 2, 3, 4, 5], { batchSize: 2, close: false, together: true }, new FirstFailure(), async (item) => {
      started.push(item);
      if (item === 1) throw new Error("file 1 failed");
    });
    await expect(run).rejects.toThrow("file 1 failed");
    expect(started).toEqual([0, 1]);
  });
});
