import { describe, expect, test } from "vitest";
import { lookupSetting } from "../../../src/lsp/settings-lookup.js";
import { ProgressTracker } from "../../../src/lsp/progress-tracker.js";
import { StderrTail } from "../../../src/sessions/stderr-tail.js";

describe("workspace/configuration answers", () => {
  const settings = { python: { analysis: { typeCheckingMode: "strict" } }, flag: false };
  test.each([
    [undefined, settings],
    ["", settings],
    ["python", settings.python],
    ["python.analysis", settings.python.analysis],
    ["python.analysis.typeCheckingMode", "strict"],
    ["flag", false],
    ["python.missing", null],
    ["nothing.at.all", null],
    ["flag.deeper", null],
    ["toString", null],
  ])("section %j", (section, expected) => {
    expect(lookupSetting(settings, section)).toEqual(expected);
  });
});

describe("work-done progress", () => {
  test("idle only when every begun token has ended; each value reports its kind", () => {
    const tracker = new ProgressTracker();
    const kinds = [
      tracker.onProgress("a", { kind: "begin", title: "index" }),
      tracker.onProgress(2, { kind: "begin", title: "load" }),
      tracker.onProgress("a", { kind: "report", percentage: 50 }),
    ];
    expect(tracker.runningTokens()).toEqual(["a", 2]);
    kinds.push(tracker.onProgress("a", { kind: "end" }));
    expect(tracker.isIdle()).toBe(false);
    kinds.push(tracker.onProgress(2, { kind: "end" }), tracker.onProgress("x", { something: "else" }));
    expect(kinds).toEqual(["begin", "begin", "report", "end", "end", null]);
    expect(tracker.isIdle()).toBe(true);
  });
});

describe("stderr tail", () => {
  test("keeps the last lines, bounded in count and length, across chunk boundaries", () => {
    const tail = new StderrTail(3, 10);
    tail.append("one\ntw");
    tail.append("o\r\nthree\n\nfour is a long line\nfi");
    expect(tail.snapshot()).toEqual(["three", "four is a …", "fi"]);
  });
});
