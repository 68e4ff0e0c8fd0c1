import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { IdleTimer } from "../../../src/sessions/idle-timer.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("IdleTimer", () => {
  test("fires once after the quiet time that follows touch()", () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(1000, onIdle);
    timer.touch();
    vi.advanceTimersByTime(999);
    timer.touch();
    vi.advanceTimersByTime(999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test("never fires while a call holds it; the countdown starts when the last holder releases", () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(1000, onIdle);
    timer.touch();
    const first = timer.hold();
    const second = timer.hold();
    vi.advanceTimersByTime(5000);
    first();
    first();
    vi.advanceTimersByTime(5000);
    expect(onIdle).not.toHaveBeenCalled();
    second();
    vi.advanceTimersByTime(999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  test("cancel() stops the countdown, and 0 turns it off", () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(1000, onIdle);
    timer.touch();
    timer.cancel();
    const off = new IdleTimer(0, onIdle);
    off.touch();
    off.hold()();
    vi.advanceTimersByTime(10_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
