import { describe, expect, it } from "vitest";
import { formatText } from "../../../src/cli/format-text.js";
import type { CheckReport, Finding } from "../../../src/diagnostics/findings/report.js";

const finding = (message: string): Finding => ({
  workspace: "w",
  server: "ruff",
  path: "a.py",
  range: { start: { line: 3, column: 5 }, end: { line: 3, column: 9 } },
  severity: "error",
  code: "F401",
  source: "Ruff",
  message,
  fingerprint: "f",
  baseline_state: null,
});

function report(findings: Finding[]): CheckReport {
  return {
    findings,
    summary: {
      files: 1,
      errors: findings.length,
      warnings: 0,
      information: 0,
      hints: 0,
      fail_on: "error",
      failing: findings.length,
      baselined: null,
      runs: [{ workspace: "w", root: "/r", server: "ruff", version: "1", toolchain: null, files: 1 }],
    },
  };
}

describe("check's text report", () => {
  it("indents a message's further lines and leaves a blank one empty: no line ends in a space", () => {
    const text = formatText(report([finding("unused import\n\nhelp: remove it")]), "/r");
    expect(text.split("\n").slice(0, 3)).toEqual(["a.py:3:5: error: unused import [Ruff F401]", "", "    help: remove it"]);
    expect(text.split("\n").filter((line) => / $/.test(line))).toEqual([]);
  });
});
