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
  test("idle only when every begun token has ended; listeners hear each change", () => {
    const tracker = new ProgressTracker();
    const heard: boolean[] = [];
    tracker.subscribe(() => heard.push(tracker.isIdle()));
    tracker.onProgress("a", { kind: "begin", title: "index" });
    tracker.onProgress(2, { kind: "begin", title: "load" });
    tracker.onProgress("a", { kind: "report", percentage: 50 });
    tracker.onProgress("a", { kind: "end" });
    tracker.onProgress(2, { kind: "end" });
    tracker.onProgress("x", { something: "else" });
    expect(heard).toEqual([false, false, false, true]);
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
