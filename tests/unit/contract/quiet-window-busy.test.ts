import { describe, expect, test } from "vitest";
import { busyThroughWindow } from "../../../src/contract/quiet-window.js";

describe("a quiet window is quiet only while the server's tree is idle", () => {
  test("more than 2 % of a core through the window is work: the window starts again", () => {
    // 3 s at 100 ticks a second: 300 ticks of one core, 6 of them idle noise.
    expect(busyThroughWindow(1000, 1006, 3000)).toBe(false);
    expect(busyThroughWindow(1000, 1007, 3000)).toBe(true);
    // A busy server on a loaded machine gets a small share of a core, and that is still work.
    expect(busyThroughWindow(1000, 1020, 3000)).toBe(true);
  });

  test("a short window still tolerates a tick or two of timers", () => {
    expect(busyThroughWindow(0, 2, 200)).toBe(false);
    expect(busyThroughWindow(0, 3, 200)).toBe(true);
  });

  test("unknown CPU times leave the window to decide alone", () => {
    expect(busyThroughWindow(null, 50, 3000)).toBe(false);
    expect(busyThroughWindow(50, null, 3000)).toBe(false);
  });
});
