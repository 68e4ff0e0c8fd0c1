import { execFile } from "node:child_process";
import { relative } from "node:path";
import type { Finding } from "./differential.js";

interface EmmyLuaCliReport {
  file: string;
  diagnostics: {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    severity?: number;
    code?: string | number;
    message: string;
  }[];
}

const SEVERITY = ["", "error", "warning", "information", "hint"];

/**
 * `emmylua_check --output-format json .` run in `root` (so its .emmyrc.json applies): the same
 * analysis as emmylua_ls, as a CLI. Its positions are LSP's, 0-based, with columns counted in code
 * points (emmylua's line index counts chars), which the bridge's are plus one.
 */
export async function emmyluaCheckFindings(root: string, emmyluaCheck: string): Promise<Finding[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    // Exit status 1 means "errors found", which is what the fixture is for.
    execFile(emmyluaCheck, ["--output-format", "json", "."], { cwd: root, maxBuffer: 64 << 20 }, (error, out) =>
      error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve(out),
    ),
  );
  return (JSON.parse(stdout) as EmmyLuaCliReport[]).flatMap((report) =>
    report.diagnostics.map((diagnostic) => ({
      path: relative(root, report.file),
      range: {
        start: { line: diagnostic.range.start.line + 1, column: diagnostic.range.start.character + 1 },
        end: { line: diagnostic.range.end.line + 1, column: diagnostic.range.end.character + 1 },
      },
      severity: SEVERITY[diagnostic.severity ?? 1]!,
      code: diagnostic.code === undefined ? null : String(diagnostic.code),
      message: diagnostic.message,
    })),
  );
}
