import { describe, expect, test } from "vitest";
import { ProgressReporter } from "../../../src/mcp/progress-reporter.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("ProgressReporter", () => {
  test("sends only growing values, with the token and total, and nothing after end()", async () => {
    const sent: unknown[] = [];
    const reporter = new ProgressReporter("tok", async (notification) => void sent.push(notification), silent);
    reporter.report(1, 3);
    reporter.report(1, 3);
    reporter.report(3, 3);
    reporter.report(2, 3);
    reporter.end();
    reporter.report(4, 4);
    expect(sent).toEqual([
      { method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 3 } },
      { method: "notifications/progress", params: { progressToken: "tok", progress: 3, total: 3 } },
    ]);
  });

  test("a send that fails is logged, not thrown", async () => {
    const logged: string[] = [];
    const reporter = new ProgressReporter(7, () => Promise.reject(new Error("gone")), { ...silent, debug: (message: string) => void logged.push(message) });
    reporter.report(1, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toEqual(["progress notification not sent"]);
  });
});
