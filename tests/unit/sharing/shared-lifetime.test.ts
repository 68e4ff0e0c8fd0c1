import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { SharedLifetime } from "../../../src/sharing/shared-lifetime.js";

const LINGER = 1_000;
const FIRST_PEER = 10_000;

let onEmpty: ReturnType<typeof vi.fn>;
let lifetime: SharedLifetime;

beforeEach(() => {
  vi.useFakeTimers();
  onEmpty = vi.fn();
  lifetime = new SharedLifetime(LINGER, FIRST_PEER, onEmpty as () => void);
});
afterEach(() => {
  lifetime.stop();
  vi.useRealTimers();
});

describe("SharedLifetime", () => {
  test("nothing happens before start", () => {
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
  });

  test("no first peer: ends after the first-peer grace, not before, and once", () => {
    lifetime.start();
    vi.advanceTimersByTime(FIRST_PEER - 1);
    expect(onEmpty).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onEmpty).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).toHaveBeenCalledTimes(1);
  });

  test("a first peer within the grace keeps it up for as long as it stays", () => {
    lifetime.start();
    vi.advanceTimersByTime(FIRST_PEER - 1);
    lifetime.peers(1);
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
  });

  test("the last peer leaving: ends after linger (not the grace), not before", () => {
    lifetime.start();
    lifetime.peers(1);
    lifetime.peers(0);
    vi.advanceTimersByTime(LINGER - 1);
    expect(onEmpty).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onEmpty).toHaveBeenCalledTimes(1);
  });

  test("a peer arriving during the linger cancels it; leaving again restarts it in full", () => {
    lifetime.start();
    lifetime.peers(1);
    lifetime.peers(0);
    vi.advanceTimersByTime(LINGER - 1);
    lifetime.peers(1);
    vi.advanceTimersByTime(LINGER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
    lifetime.peers(0);
    vi.advanceTimersByTime(LINGER - 1);
    expect(onEmpty).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onEmpty).toHaveBeenCalledTimes(1);
  });

  test("a count that drops but stays above zero does not end it", () => {
    lifetime.start();
    lifetime.peers(1);
    lifetime.peers(2);
    lifetime.peers(1);
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
  });

  test("stop cancels a pending first-peer deadline", () => {
    lifetime.start();
    lifetime.stop();
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
  });

  test("stop cancels a pending linger, and nothing arms afterwards", () => {
    lifetime.start();
    lifetime.peers(1);
    lifetime.peers(0);
    lifetime.stop();
    lifetime.peers(1);
    lifetime.peers(0);
    lifetime.start();
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  test("a zero linger ends on the next turn of the timer queue", () => {
    const quick = new SharedLifetime(0, FIRST_PEER, onEmpty as () => void);
    quick.start();
    quick.peers(1);
    quick.peers(0);
    expect(onEmpty).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(onEmpty).toHaveBeenCalledTimes(1);
    quick.stop();
  });

  test("a peer that attached before start() keeps the server up (no first-peer deadline over a live peer)", () => {
    // serve-shared publishes the lease (claimLease) and awaits sweepOrphans before lifetime.start():
    // a third lspmcp can find the lease and attach in that gap, so peers(1) may precede start().
    lifetime.peers(1);
    lifetime.start();
    vi.advanceTimersByTime(FIRST_PEER * 10);
    expect(onEmpty).not.toHaveBeenCalled();
  });
});
