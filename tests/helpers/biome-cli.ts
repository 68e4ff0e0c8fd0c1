import { execFile } from "node:child_process";
import { join } from "node:path";
import type { Finding } from "./differential.js";
import { REPO } from "./paths.js";

interface BiomeCliDiagnostic {
  severity: string;
  message: string;
  category: string;
  location: { path: string; start: { line: number; column: number }; end: { line: number; column: number } };
}

/**
 * `biome lint --reporter=json .` run in `root` with the Biome lspmcp pins (its package's own CLI),
 * and its exit code. Biome's lines and columns are 1-based code points, as the bridge's; its
 * `category` is what the language server gives as the code.
 */
export async function biomeLintFindings(root: string): Promise<{ code: number; findings: Finding[] }> {
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve, reject) =>
    execFile(join(REPO, "node_modules/.bin/biome"), ["lint", "--reporter=json", "."], { cwd: root, maxBuffer: 64 << 20 }, (error, out) =>
      // Exit status 1 means "errors found".
      error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve({ code: error ? 1 : 0, stdout: out }),
    ),
  );
  const report = JSON.parse(stdout) as { diagnostics: BiomeCliDiagnostic[] };
  return {
    code,
    findings: report.diagnostics.map((diagnostic) => ({
      path: diagnostic.location.path,
      range: { start: diagnostic.location.start, end: diagnostic.location.end },
      severity: diagnostic.severity === "info" ? "information" : diagnostic.severity,
      code: diagnostic.category,
      message: diagnostic.message,
    })),
  };
}
