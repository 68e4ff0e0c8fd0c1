// The memory watch's parts against this very process: VmRSS is read as /proc says it, a process
// that is gone counts nothing, and a watch past its cap reports once and stops.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { measureTree, watchMemory, type TreeMemory } from "../../src/supervision/memory-watch.js";
import { identify, readRssKiB } from "../../src/supervision/proc-table.js";

const selfRssKiB = (): number => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))![1]);

describe("measureTree", () => {
  test("sums VmRSS of the live members; a gone pid counts 0", () => {
    const self = identify(process.pid)!;
    const gone = { pid: 2 ** 22 + 1, startTime: 1 };
    const before = selfRssKiB();
    const measured = measureTree([self, gone]);
    const after = selfRssKiB();
    expect(measured.processes).toBe(1);
    expect(measured.rssKiB).toBeGreaterThanOrEqual(Math.min(before, after) * 0.99);
    expect(measured.rssKiB).toBeLessThanOrEqual(Math.max(before, after) * 1.01);
    expect(readRssKiB(gone.pid)).toBeUndefined();
  });
});

describe("watchMemory", () => {
  test("samples at once; past the cap it reports once, not as a sample, and stops", async () => {
    const self = identify(process.pid)!;
    const samples: TreeMemory[] = [];
    const over: TreeMemory[] = [];
    const stop = watchMemory({ scan: () => [self], intervalMs: 20, capKiB: null, onSample: (s) => samples.push(s), onOverCap: (s) => over.push(s) });
    expect(samples).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    expect(samples.length).toBeGreaterThan(1);
    expect(over).toEqual([]);

    let scans = 0;
    watchMemory({ scan: () => (scans++, [self]), intervalMs: 20, capKiB: 1024, onSample: (s) => samples.push(s), onOverCap: (s) => over.push(s) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(over).toHaveLength(1);
    expect(over[0]!.rssKiB).toBeGreaterThan(1024);
    expect(scans).toBe(1);
  });
});
