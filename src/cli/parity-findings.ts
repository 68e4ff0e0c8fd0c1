import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { SEVERITY_NAMES, type SeverityName } from "../contract/names.js";

/**
 * One finding as `lspmcp parity` compares it, from the bridge or from the server's own CLI:
 * `path` relative to the workspace root with `/` separators, `line` 1-based, `column` 1-based or
 * null where the CLI gives none.
 */
export interface ParityFinding {
  readonly path: string;
  readonly line: number;
  readonly column: number | null;
  readonly severity: SeverityName;
  readonly code: string | null;
  readonly message: string;
}

/** The fields two findings may be compared on; `path` and `line` always are. */
export const PARITY_KEY_FIELDS = ["column", "severity", "code", "message"] as const;
export type ParityKeyField = (typeof PARITY_KEY_FIELDS)[number];
/** The comparison when `--ignore` names nothing: file, line, severity, code and message. */
export const DEFAULT_PARITY_KEY: readonly ParityKeyField[] = ["severity", "code", "message"];

/** The CLI formats `parity` reads. */
export const PARITY_FORMATS = ["sarif", "json"] as const;
export type ParityFormat = (typeof PARITY_FORMATS)[number];

/**
 * The small JSON shape a CLI's output may be converted to: `{ "findings": [ … ] }`. A path is
 * relative to the folder the CLI ran in (the workspace root) or absolute; `column` and `code`
 * may be left out.
 */
const ParityJsonSchema = z.object({
  findings: z.array(
    z.object({
      path: z.string().min(1),
      line: z.number().int().min(1),
      column: z.number().int().min(1).nullable().optional(),
      severity: z.enum(SEVERITY_NAMES),
      code: z.union([z.string(), z.number()]).nullable().optional(),
      message: z.string(),
    }),
  ),
});

/** The part of SARIF 2.1.0 that `parity` reads; everything else in the log is let be. */
const SarifSchema = z
  .object({
    runs: z.array(
      z
        .object({
          originalUriBaseIds: z.record(z.string(), z.object({ uri: z.string().optional() }).loose()).optional(),
          results: z
            .array(
              z
                .object({
                  ruleId: z.string().optional(),
                  level: z.enum(["error", "warning", "note", "none"]).optional(),
                  message: z.object({ text: z.string().optional() }).loose(),
                  locations: z
                    .array(
                      z
                        .object({
                          physicalLocation: z
                            .object({
                              artifactLocation: z.object({ uri: z.string(), uriBaseId: z.string().optional() }).loose(),
                              region: z
                                .object({ startLine: z.number().int().min(1).optional(), startColumn: z.number().int().min(1).optional() })
                                .loose()
                                .optional(),
                            })
                            .loose()
                            .optional(),
                        })
                        .loose(),
                    )
                    .optional(),
                })
                .loose(),
            )
            .optional(),
        })
        .loose(),
    ),
  })
  .loose();

/** SARIF's levels as lspmcp's severities; a result with no level is a warning (SARIF 3.27.10). */
const SARIF_LEVELS: Readonly<Record<string, SeverityName>> = { error: "error", warning: "warning", note: "information", none: "hint" };

/**
 * The findings of a CLI's output in `format`, its paths made relative to `root` (a relative path
 * is taken from `root`, where the CLI runs). A SARIF result with no file location cannot be
 * compared: it is returned apart, by message. Throws an `Error` saying what does not parse.
 */
export function readCliFindings(output: string, format: ParityFormat, root: string): { findings: ParityFinding[]; unplaced: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch (error) {
    throw new Error(`the CLI's output is not JSON: ${(error as Error).message}`);
  }
  if (format === "json") {
    const json = ParityJsonSchema.safeParse(parsed);
    if (!json.success) throw new Error(`the CLI's output is not parity's JSON shape: ${describeIssues(json.error)}`);
    const findings = json.data.findings.map((finding) => ({
      path: workspacePath(finding.path, root),
      line: finding.line,
      column: finding.column ?? null,
      severity: finding.severity,
      code: finding.code === undefined || finding.code === null ? null : String(finding.code),
      message: finding.message,
    }));
    return { findings, unplaced: [] };
  }
  const sarif = SarifSchema.safeParse(parsed);
  if (!sarif.success) throw new Error(`the CLI's output is not SARIF 2.1.0: ${describeIssues(sarif.error)}`);
  const findings: ParityFinding[] = [];
  const unplaced: string[] = [];
  for (const run of sarif.data.runs) {
    for (const result of run.results ?? []) {
      const message = result.message.text ?? "";
      const physical = result.locations?.[0]?.physicalLocation;
      const line = physical?.region?.startLine;
      if (physical === undefined || line === undefined) {
        unplaced.push(message);
        continue;
      }
      const base = physical.artifactLocation.uriBaseId === undefined ? undefined : run.originalUriBaseIds?.[physical.artifactLocation.uriBaseId]?.uri;
      findings.push({
        path: workspacePath(uriPath(physical.artifactLocation.uri, base), root),
        line,
        column: physical.region?.startColumn ?? null,
        severity: SARIF_LEVELS[result.level ?? "warning"]!,
        code: result.ruleId ?? null,
        message,
      });
    }
  }
  return { findings, unplaced };
}

/** The comparison of one state's findings: what the bridge dropped and what it added, each in order. */
export interface ParityDifference {
  /** The CLI's findings that the bridge did not give. */
  readonly dropped: readonly ParityFinding[];
  /** The bridge's findings that the CLI did not give. */
  readonly extra: readonly ParityFinding[];
}

/**
 * Compares two lists as multisets on `path`, `line` and the fields of `key`: each finding of one
 * side pairs with one equal finding of the other; what is left over on each side is the
 * difference. Messages are compared with every run of white space made one space (a CLI indents
 * the lines of a long message that the server separates otherwise).
 */
export function compareFindings(bridge: readonly ParityFinding[], cli: readonly ParityFinding[], key: readonly ParityKeyField[]): ParityDifference {
  const keyOf = (finding: ParityFinding) =>
    JSON.stringify([finding.path, finding.line, ...key.map((field) => (field === "message" ? finding.message.replace(/\s+/g, " ").trim() : finding[field]))]);
  const left = new Map<string, number>();
  for (const finding of bridge) left.set(keyOf(finding), (left.get(keyOf(finding)) ?? 0) + 1);
  const dropped: ParityFinding[] = [];
  for (const finding of cli) {
    const k = keyOf(finding);
    const count = left.get(k) ?? 0;
    if (count > 0) left.set(k, count - 1);
    else dropped.push(finding);
  }
  const extra: ParityFinding[] = [];
  for (const finding of [...bridge].reverse()) {
    const k = keyOf(finding);
    const count = left.get(k) ?? 0;
    if (count > 0) {
      left.set(k, count - 1);
      extra.push(finding);
    }
  }
  return { dropped: sortFindings(dropped), extra: sortFindings(extra) };
}

/** Findings by path, line, column, then message. */
export function sortFindings(findings: readonly ParityFinding[]): ParityFinding[] {
  return [...findings].sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line ||
      (a.column ?? 0) - (b.column ?? 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** One finding as a line of the report: `path:line[:column]: severity [code] message`. */
export function formatFinding(finding: ParityFinding): string {
  const place = finding.column === null ? `${finding.path}:${finding.line}` : `${finding.path}:${finding.line}:${finding.column}`;
  const code = finding.code === null ? "" : ` [${finding.code}]`;
  return `${place}: ${finding.severity}${code} ${JSON.stringify(finding.message).slice(1, -1)}`;
}

/** A `file:` URI, or a relative reference under `base` (itself a `file:` URI), as a file path. */
function uriPath(uri: string, base: string | undefined): string {
  if (uri.startsWith("file:")) return fileURLToPath(uri);
  const path = decodeURIComponent(uri);
  if (base?.startsWith("file:")) return resolve(fileURLToPath(base), path);
  return path;
}

/** `path` (relative to `root`, or absolute) relative to `root` with `/` separators. */
function workspacePath(path: string, root: string): string {
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  return relative(root, absolute).split(sep).join("/");
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(top)"}: ${issue.message}`)
    .join("; ");
}
