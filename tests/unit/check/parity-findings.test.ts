import { describe, expect, test } from "vitest";
import { compareFindings, DEFAULT_PARITY_KEY, readCliFindings, type ParityFinding } from "../../../src/cli/parity-findings.js";

const finding = (line: number, extra: Partial<ParityFinding> = {}): ParityFinding => ({
  path: "src/a.py",
  line,
  column: 5,
  severity: "error",
  code: "E1",
  message: "wrong",
  ...extra,
});

describe("compareFindings", () => {
  test("equal lists, in any order, differ in nothing", () => {
    expect(compareFindings([finding(2), finding(1)], [finding(1), finding(2)], DEFAULT_PARITY_KEY)).toEqual({ dropped: [], extra: [] });
  });

  test("a finding the CLI gives twice and the bridge once is dropped once", () => {
    expect(compareFindings([finding(1)], [finding(1), finding(1)], DEFAULT_PARITY_KEY)).toEqual({ dropped: [finding(1)], extra: [] });
    expect(compareFindings([finding(1), finding(1), finding(3)], [finding(1)], DEFAULT_PARITY_KEY)).toEqual({ dropped: [], extra: [finding(1), finding(3)] });
  });

  test("severity, code and message count; columns only when asked; white space runs are one space", () => {
    expect(compareFindings([finding(1, { severity: "warning" })], [finding(1)], DEFAULT_PARITY_KEY).dropped).toHaveLength(1);
    expect(compareFindings([finding(1, { code: null })], [finding(1)], DEFAULT_PARITY_KEY).dropped).toHaveLength(1);
    expect(compareFindings([finding(1, { column: 9 })], [finding(1)], DEFAULT_PARITY_KEY).dropped).toHaveLength(0);
    expect(compareFindings([finding(1, { column: 9 })], [finding(1)], [...DEFAULT_PARITY_KEY, "column"]).dropped).toHaveLength(1);
    expect(compareFindings([finding(1, { message: "a\n  b" })], [finding(1, { message: "a b" })], DEFAULT_PARITY_KEY).dropped).toHaveLength(0);
    expect(compareFindings([finding(1, { message: "a b" })], [finding(1, { message: "a c" })], ["severity", "code"]).dropped).toHaveLength(0);
  });
});

describe("readCliFindings", () => {
  test("parity's JSON shape: paths from the root or absolute, codes as strings, column optional", () => {
    const output = JSON.stringify({
      findings: [
        { path: "src/a.py", line: 3, severity: "error", code: 2322, message: "m" },
        { path: "/w/src/b.py", line: 1, column: 2, severity: "hint", message: "n" },
      ],
    });
    expect(readCliFindings(output, "json", "/w").findings).toEqual([
      { path: "src/a.py", line: 3, column: null, severity: "error", code: "2322", message: "m" },
      { path: "src/b.py", line: 1, column: 2, severity: "hint", code: null, message: "n" },
    ]);
  });

  test("SARIF: file URIs, relative URIs under a base, levels as severities (none given: warning), results with no place apart", () => {
    const output = JSON.stringify({
      version: "2.1.0",
      runs: [
        {
          originalUriBaseIds: { SRC: { uri: "file:///w/src/" } },
          results: [
            {
              ruleId: "R1",
              level: "note",
              message: { text: "a" },
              locations: [{ physicalLocation: { artifactLocation: { uri: "file:///w/src/a%20b.py" }, region: { startLine: 2, startColumn: 3 } } }],
            },
            {
              ruleId: "R2",
              message: { text: "b" },
              locations: [{ physicalLocation: { artifactLocation: { uri: "c.py", uriBaseId: "SRC" }, region: { startLine: 4 } } }],
            },
            {
              ruleId: "R3",
              level: "none",
              message: { text: "c" },
              locations: [{ physicalLocation: { artifactLocation: { uri: "src/c.py" }, region: { startLine: 5 } } }],
            },
            { ruleId: "R4", level: "error", message: { text: "nowhere" } },
          ],
        },
      ],
    });
    expect(readCliFindings(output, "sarif", "/w")).toEqual({
      findings: [
        { path: "src/a b.py", line: 2, column: 3, severity: "information", code: "R1", message: "a" },
        { path: "src/c.py", line: 4, column: null, severity: "warning", code: "R2", message: "b" },
        { path: "src/c.py", line: 5, column: null, severity: "hint", code: "R3", message: "c" },
      ],
      unplaced: ["nowhere"],
    });
  });

  test("output that is not JSON, or not the format, says what is wrong", () => {
    expect(() => readCliFindings("oops", "json", "/w")).toThrow(/not JSON/);
    expect(() => readCliFindings(JSON.stringify({ findings: [{ path: "a", line: 0, severity: "fatal", message: "" }] }), "json", "/w")).toThrow(
      /not parity's JSON shape: findings\.0\.line/,
    );
    expect(() => readCliFindings(JSON.stringify({ results: [] }), "sarif", "/w")).toThrow(/not SARIF 2\.1\.0: runs/);
  });
});
