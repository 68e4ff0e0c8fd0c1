import { execFile } from "node:child_process";
import { relative } from "node:path";
import type { Finding } from "./differential.js";

interface RuffCliDiagnostic {
  code: string | null;
  message: string;
  filename: string;
  location: { row: number; column: number };
  end_location: { row: number; column: number };
  fix: { message: string | null } | null;
}

/**
 * `ruff check --output-format json` run in `root` (so its ruff.toml applies; `--no-cache` so that
 * the CLI writes no .ruff_cache either), as the findings `ruff server` gives for the same files.
 * The CLI's rows and columns are 1-based code points, as the bridge's. Two things the server adds,
 * stated here so that everything else must match exactly: its message ends with "\n\nhelp: " and
 * the fix's title where the CLI has one; and it gives a severity, which the CLI does not (the CLI
 * says "error" for every finding): `error` for F821 (undefined name), `warning` for the other
 * rules of the fixtures.
 */
export async function ruffCliFindings(root: string, ruff: string): Promise<Finding[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    // Exit status 1 means "findings", which is what the fixtures are for.
    execFile(ruff, ["check", "--no-cache", "--output-format", "json", "."], { cwd: root, maxBuffer: 64 << 20 }, (error, out) =>
      error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve(out),
    ),
  );
  return (JSON.parse(stdout) as RuffCliDiagnostic[]).map((diagnostic) => ({
    path: relative(root, diagnostic.filename),
    range: {
      start: { line: diagnostic.location.row, column: diagnostic.location.column },
      end: { line: diagnostic.end_location.row, column: diagnostic.end_location.column },
    },
    severity: diagnostic.code === "F821" ? "error" : "warning",
    code: diagnostic.code,
    message: diagnostic.fix?.message ? `${diagnostic.message}\n\nhelp: ${diagnostic.fix.message}` : diagnostic.message,
  }));
}
