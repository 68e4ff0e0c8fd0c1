import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Bridge } from "./bridge.js";
import { REPO } from "./paths.js";

/**
 * One finding as both sides can state it: the bridge's positions (1-based line, 1-based column in
 * code points), severity name, code and message. Compared as one string, so a failing test shows
 * exactly which findings differ.
 */
export interface Finding {
  readonly path: string;
  readonly range: { start: { line: number; column: number }; end: { line: number; column: number } };
  readonly severity: string;
  readonly code: string | null;
  readonly message: string;
}

export function findingKey(finding: Finding): string {
  const { start, end } = finding.range;
  return `${finding.path}:${start.line}:${start.column}-${end.line}:${end.column} ${finding.severity} [${finding.code ?? ""}] ${finding.message}`;
}

/** The keys of `findings`, sorted, for an order-free comparison that keeps duplicates. */
export function findingKeys(findings: readonly Finding[]): string[] {
  return findings.map(findingKey).sort();
}

interface PyrightCliDiagnostic {
  file: string;
  severity: "error" | "warning" | "information";
  message: string;
  rule?: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/**
 * `pyright --outputjson` run in `root` (so its `pyrightconfig.json` applies), converted to the
 * bridge's positions: the CLI's are 0-based with UTF-16 columns. `pyright` may be another build
 * of the same CLI (basedpyright's).
 */
export async function pyrightCliFindings(root: string, pyright = join(REPO, "node_modules/.bin/pyright")): Promise<Finding[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    // Exit status 1 means "errors found", which is what these fixtures are for.
    execFile(pyright, ["--outputjson"], { cwd: root, maxBuffer: 64 << 20 }, (error, out) =>
      error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve(out),
    ),
  );
  const report = JSON.parse(stdout) as { generalDiagnostics: PyrightCliDiagnostic[] };
  const files = new Map<string, string[]>();
  const linesOf = (file: string) => files.get(file) ?? files.set(file, readFileSync(file, "utf8").split("\n")).get(file)!;
  return report.generalDiagnostics.map((diagnostic) => {
    const lines = linesOf(diagnostic.file);
    // Columns are UTF-16 offsets on the CLI's side and code points on the bridge's.
    const at = (position: { line: number; character: number }) => ({
      line: position.line + 1,
      column: [...(lines[position.line] ?? "").slice(0, position.character)].length + 1,
    });
    return {
      path: relative(root, diagnostic.file),
      range: { start: at(diagnostic.range.start), end: at(diagnostic.range.end) },
      severity: diagnostic.severity,
      code: diagnostic.rule ?? null,
      message: diagnostic.message,
    };
  });
}

/**
 * The `tsc` of each TypeScript lspmcp's tests hold answers to: 7.0.2 is the pinned compiler
 * (the typescript profile answers with it when a workspace has none), 6.0.3 and 5.9.3 are what a
 * workspace may bring.
 */
export const TSC = {
  "7.0.2": join(REPO, "node_modules/typescript-7/bin/tsc"),
  "6.0.3": join(REPO, "node_modules/typescript-6.0/bin/tsc"),
  "5.9.3": join(REPO, "node_modules/typescript/bin/tsc"),
} as const;

/**
 * `tsc --noEmit -p .` run in `root`, parsed from its plain output (`file(line,col): error TSn:
 * message`, further message lines indented). tsc prints no end position, so `range.end` is the
 * start; compare with {@link startKey}. By default the pinned compiler's tsc.
 */
export async function tscFindings(root: string, tsc: string = TSC["7.0.2"]): Promise<Finding[]> {
  return tscRunFindings(root, ["--noEmit", "-p", "."], tsc);
}

/** The findings of `tsc ARGS --pretty false` run in `root` (`-b`, `-p FOLDER`...), as {@link tscFindings} reads them. */
export async function tscRunFindings(root: string, args: readonly string[], tsc: string = TSC["7.0.2"]): Promise<Finding[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    // "Errors found" is exit status 2 for tsc 5 and 6, 1 for tsc 7.
    execFile(tsc, [...args, "--pretty", "false"], { cwd: root, maxBuffer: 64 << 20 }, (error, out) =>
      error && ![1, 2].includes((error as { code?: unknown }).code as number) ? reject(error) : resolve(out),
    ),
  );
  const findings: Finding[] = [];
  const files = new Map<string, string[]>();
  const linesOf = (file: string) => files.get(file) ?? files.set(file, readFileSync(join(root, file), "utf8").split("\n")).get(file)!;
  for (const line of stdout.split("\n")) {
    const match = /^(.+)\((\d+),(\d+)\): (error|warning) TS(\d+): (.*)$/.exec(line);
    if (match) {
      const [, path, row, utf16, severity, code, message] = match;
      const text = linesOf(path!)[Number(row) - 1] ?? "";
      const start = { line: Number(row), column: [...text.slice(0, Number(utf16) - 1)].length + 1 };
      findings.push({ path: path!, range: { start, end: start }, severity: severity!, code: code!, message: message! });
    } else if (line.startsWith("  ") && findings.length > 0) {
      const last = findings.pop()!;
      findings.push({ ...last, message: `${last.message}\n${line}` });
    }
  }
  return findings;
}

/** The keys of `findings` by start position only, sorted. */
export function startKeys(findings: readonly Finding[]): string[] {
  return findings.map((finding) => findingKey({ ...finding, range: { start: finding.range.start, end: finding.range.start } })).sort();
}

/**
 * The `diagnostics` tool's answer, with the MCP client's own request timeout raised to match the
 * bridge's deadline: a whole project in one call outlasts the SDK's 60 s default on a busy machine.
 */
export async function diagnostics(bridge: Bridge, args: Record<string, unknown>): Promise<{ items: Finding[]; total: number }> {
  const result = (await bridge.client.callTool({ name: "diagnostics", arguments: args }, undefined, { timeout: 600_000 })) as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: { items: Finding[]; total: number };
  };
  if (result.isError || !result.structuredContent) throw new Error(`diagnostics failed: ${result.content[0]?.text}`);
  return result.structuredContent;
}
