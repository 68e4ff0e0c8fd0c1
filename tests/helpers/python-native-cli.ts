import { execFile } from "node:child_process";
import type { Finding } from "./differential.js";

// The CLIs of the native Python type checkers, ty and pyrefly, as the truth their language
// servers are held to. Both print 1-based lines and columns in code points, as the bridge does,
// and an end that excludes its last character, as LSP's does.

function run(command: string, args: readonly string[], root: string): Promise<string> {
  return new Promise((resolve, reject) =>
    // Exit status 1 means "findings", which is what the fixtures are for.
    execFile(command, [...args], { cwd: root, maxBuffer: 64 << 20 }, (error, out) =>
      error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve(out),
    ),
  );
}

interface TyGitlabIssue {
  check_name: string;
  description: string;
  severity: "major" | "minor";
  location: { path: string; positions: { begin: { line: number; column: number }; end: { line: number; column: number } } };
}

/**
 * `ty check --output-format gitlab .` run in `root` (its ty.toml or [tool.ty] applies). GitLab's
 * format says `major` for ty's errors and `minor` for its warnings, and prefixes each message
 * with its rule; the message is the diagnostic's first line (the server adds ty's "info:" lines
 * below it: compare with {@link firstLine}). ty prints a few diagnostics twice (the same range,
 * rule and message, e.g. Flask's `app.py:1195`); the bridge gives identical findings once
 * (CONTRACT §4.2), so they are kept once here.
 */
export async function tyCliFindings(root: string, ty: string): Promise<Finding[]> {
  const issues = JSON.parse(await run(ty, ["check", "--no-progress", "--output-format", "gitlab", "."], root)) as TyGitlabIssue[];
  const findings = issues.map((issue) => ({
    path: issue.location.path,
    range: { start: issue.location.positions.begin, end: issue.location.positions.end },
    severity: issue.severity === "major" ? "error" : "warning",
    code: issue.check_name,
    message: issue.description.slice(`${issue.check_name}: `.length),
  }));
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = JSON.stringify(finding);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

interface PyreflyCliError {
  line: number;
  column: number;
  stop_line: number;
  stop_column: number;
  path: string;
  name: string;
  concise_description: string;
  description: string;
  severity: "error" | "warn" | "info";
}

/**
 * `pyrefly check --output-format json` run in `root`, with no path: the project's pyrefly.toml or
 * [tool.pyrefly], else pyrefly's auto configuration, which is what `pyrefly lsp` uses too. (With
 * "." as the path and no config, the CLI guesses its import roots otherwise and fails relative
 * imports the server resolves: `from .. import x` in httpx/_transports.) pyrefly says `warn`
 * where LSP says warning, and `info` for information.
 */
export async function pyreflyCliFindings(root: string, pyrefly: string): Promise<Finding[]> {
  const report = JSON.parse(await run(pyrefly, ["check", "--output-format", "json"], root)) as { errors: PyreflyCliError[] };
  const severity = { error: "error", warn: "warning", info: "information" } as const;
  return report.errors.map((error) => ({
    path: error.path,
    range: { start: { line: error.line, column: error.column }, end: { line: error.stop_line, column: error.stop_column } },
    severity: severity[error.severity],
    code: error.name,
    message: error.description,
  }));
}

/** A finding with its message cut to the first line, for a server that adds lines below it (ty). */
export function firstLine(finding: Finding): Finding {
  return { ...finding, message: finding.message.split("\n")[0]! };
}
