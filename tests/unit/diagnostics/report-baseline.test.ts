import { describe, expect, test } from "vitest";
import type { ResolvedConfig } from "../../../src/config/types.js";
import type { BridgeDiagnostic } from "../../../src/contract/diagnostic-order.js";
import type { FileDiagnostics } from "../../../src/diagnostics/run/file-diagnostics.js";
import { buildReport } from "../../../src/diagnostics/findings/report.js";
import { answer } from "./file-answer.js";

const config = { workspaces: [{ name: "w" }, { name: "v" }] } as unknown as ResolvedConfig;

function error(path: string, line: number): BridgeDiagnostic {
  const range = { start: { line, column: 1 }, end: { line, column: 2 } };
  return { path, range, severity: "error", code: "2322", source: "ts", message: "bad", channels: ["push"] };
}

/** `a.ts` with the same error on two lines of equal content. */
function twoCopies(): FileDiagnostics {
  return { ...answer("w", "typescript", "a.ts"), text: "f();\nf();\n", diagnostics: [error("a.ts", 1), error("a.ts", 2)] };
}

describe("buildReport", () => {
  test("a baseline holding a finding once accepts its first copy in report order, not the second", () => {
    const first = buildReport(config, { files: [twoCopies()], sessions: [] }, "error", null);
    const print = first.findings[0]!.fingerprint;
    expect(first.findings[1]!.fingerprint).toBe(print);
    const report = buildReport(config, { files: [twoCopies()], sessions: [] }, "error", [print, "other"]);
    expect(report.findings.map((finding) => [finding.range.start.line, finding.baseline_state])).toEqual([
      [1, "unchanged"],
      [2, "new"],
    ]);
    expect([report.summary.baselined, report.summary.failing]).toEqual([1, 1]);
    expect(buildReport(config, { files: [twoCopies()], sessions: [] }, "error", [print, print]).summary.failing).toBe(0);
  });

  test("not_checked lists files by workspace in configuration order, then path", () => {
    const files = [answer("v", "gopls", "a.go", "in v"), answer("w", "gopls", "b.go", "in w"), answer("w", "gopls", "a.go", "first")];
    const report = buildReport(config, { files, sessions: [] }, "error", null);
    expect(report.summary.not_checked?.map((file) => `${file.workspace}/${file.path}`)).toEqual(["w/a.go", "w/b.go", "v/a.go"]);
  });
});
