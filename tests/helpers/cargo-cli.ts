import { execFile } from "node:child_process";
import type { Finding } from "./differential.js";

interface Span {
  file_name: string;
  line_start: number;
  line_end: number;
  column_start: number;
  column_end: number;
  is_primary: boolean;
  label: string | null;
  suggested_replacement: string | null;
}

interface RustcDiagnostic {
  level: string;
  message: string;
  /** rustc's own rendering of the whole message (header, snippet, notes, helps), for a top-level one. */
  rendered: string | null;
  code: { code: string } | null;
  spans: Span[];
  children: RustcDiagnostic[];
}

const SEVERITY: Readonly<Record<string, string>> = {
  error: "error",
  "error: internal compiler error": "error",
  warning: "warning",
  note: "information",
  help: "hint",
};

/**
 * What rust-analyzer's flycheck runs, run by hand: `cargo check --workspace --all-targets
 * --keep-going --message-format=json` in `root`, with cargo's target folder at `targetDir` (never
 * the fixture's own). rustc counts 1-based lines and code-point columns, as the bridge does.
 */
export async function cargoCheckMessages(root: string, targetDir: string): Promise<RustcDiagnostic[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    // Exit status 101 means "errors found", which is what the fixtures are for.
    execFile(
      "cargo",
      ["check", "--workspace", "--all-targets", "--keep-going", "--message-format=json", "--offline"],
      { cwd: root, env: { ...process.env, CARGO_TARGET_DIR: targetDir }, maxBuffer: 64 << 20 },
      (error, out) => (error && (error as { code?: unknown }).code !== 101 ? reject(error) : resolve(out)),
    ),
  );
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { reason: string; message?: RustcDiagnostic })
    .flatMap(({ reason, message }) => (reason === "compiler-message" && message ? [message] : []));
}

/**
 * rustc's messages as rust-analyzer turns them into LSP diagnostics (its
 * `diagnostics/flycheck_to_proto.rs`, for a client without relatedInformation, as lspmcp is):
 * one diagnostic at each primary span, whose message is rustc's, then each span-less child's
 * message on a line of its own, or else the primary span's label; and a hint for each labelled
 * secondary span (its label) and for each child with a span (its message, then its suggested
 * replacements). A message that two targets of a package report (the library and its tests)
 * counts once, as rust-analyzer keeps it. Only rustc's side of what the bridge answers: the test
 * compares this with the `rustc` part of the answer exactly.
 */
export function asRustAnalyzerFindings(messages: readonly RustcDiagnostic[]): Finding[] {
  const findings = new Map<string, Finding>();
  const add = (finding: Finding) => findings.set(JSON.stringify(finding), finding);
  const rangeOf = (span: Span) => ({
    start: { line: span.line_start, column: span.column_start },
    end: { line: span.line_end, column: span.column_end },
  });
  for (const diagnostic of messages) {
    const primaries = diagnostic.spans.filter((span) => span.is_primary);
    const severity = SEVERITY[diagnostic.level];
    if (primaries.length === 0 || severity === undefined) continue;
    const code = diagnostic.code?.code ?? null;
    let message = diagnostic.message;
    let needsLabel = true;
    const hints: { span: Span; message: string }[] = diagnostic.spans
      .filter((span) => !span.is_primary && span.label !== null)
      .map((span) => ({ span, message: span.label! }));
    for (const child of diagnostic.children) {
      const spans = child.spans.filter((span) => span.is_primary);
      if (spans.length === 0) {
        message += `\n${child.message}`;
        needsLabel = false;
        continue;
      }
      const replacements = spans.flatMap((span) => (span.suggested_replacement ? [`\`${span.suggested_replacement}\``] : []));
      hints.push({ span: spans[0]!, message: replacements.length > 0 ? `${child.message}: ${replacements.join(", ")}` : child.message });
    }
    for (const primary of primaries) {
      const text = needsLabel && primary.label ? `${message}\n${primary.label}` : message;
      add({ path: primary.file_name, range: rangeOf(primary), severity, code, message: text });
      for (const hint of hints) add({ path: hint.span.file_name, range: rangeOf(hint.span), severity: "hint", code, message: hint.message });
    }
  }
  return [...findings.values()];
}

/** bacon-ls's severities (its `native.rs`, `parse_severity`). */
const BACON_LS_SEVERITY: Readonly<Record<string, string>> = {
  error: "error",
  warning: "warning",
  "failure-note": "warning",
  note: "information",
  help: "hint",
};

/**
 * rustc's messages as bacon-ls 0.31.0 turns them into LSP diagnostics (its `native.rs`,
 * `maybe_add_diagnostic`, with `separateChildDiagnostics = false`, as lspmcp's profile sets): one
 * diagnostic at each primary span of a message that has one, whose message is rustc's rendered
 * text without its last line break, with no code (the error's code stays in the rendered header,
 * `error[E0308]: …`); the children go into related information, which lspmcp does not read; a
 * message without a primary span (cargo's "generated 3 warnings") is no finding. One that two
 * targets report (the library and its tests) counts once: bacon-ls keeps a file's diagnostics
 * apart by range, severity and message. (Spans in macro expansions, which bacon-ls follows back to
 * the project's file, do not occur in the fixtures.)
 */
export function asBaconLsFindings(messages: readonly RustcDiagnostic[]): Finding[] {
  const findings = new Map<string, Finding>();
  for (const diagnostic of messages) {
    const severity = BACON_LS_SEVERITY[diagnostic.level];
    if (severity === undefined || diagnostic.rendered === null) continue;
    const message = diagnostic.rendered.replace(/\n+$/, "");
    for (const span of diagnostic.spans.filter((candidate) => candidate.is_primary)) {
      const range = { start: { line: span.line_start, column: span.column_start }, end: { line: span.line_end, column: span.column_end } };
      const finding = { path: span.file_name, range, severity, code: null, message };
      findings.set(JSON.stringify(finding), finding);
    }
  }
  return [...findings.values()];
}
