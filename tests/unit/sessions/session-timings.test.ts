import { describe, expect, test } from "vitest";
import { DEFAULT_SESSION_TIMINGS, resolveSessionTimings } from "../../../src/sessions/session-timings.js";

describe("a session's timings", () => {
  test("a test's overrides replace the defaults one by one; a negative or non-numeric one falls back", () => {
    expect(resolveSessionTimings()).toEqual(DEFAULT_SESSION_TIMINGS);
    expect(resolveSessionTimings({ stderrDrainMs: 0, shutdownGraceMs: -1, exitReportMs: Number.NaN })).toEqual({
      shutdownGraceMs: DEFAULT_SESSION_TIMINGS.shutdownGraceMs,
      exitReportMs: DEFAULT_SESSION_TIMINGS.exitReportMs,
      stderrDrainMs: 0,
    });
  });
});
