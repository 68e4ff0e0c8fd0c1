import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Finding } from "./differential.js";

/**
 * `clang -fsyntax-only` run in `root` on `files` with the flags of `root/compile_flags.txt` (what
 * clangd reads there), and its exit code: clang's own diagnostics, as clangd 14 turns them into
 * LSP diagnostics (its `Diagnostics.cpp`). Only the start is compared (clang prints a location and
 * source ranges, clangd a token's range): the first printed range holding the location, else the
 * location, in code points (clang counts bytes). The message is clang's with its first letter
 * capitalised and, when the diagnostic or its notes carry fix-its, " (fix available)" or " (fixes
 * available)" appended (a note with a fix-it becomes a fix and is not shown); the code is the
 * warning's flag (`-Wformat`), and null for an error, whose internal name clang does not print.
 * A note without a fix-it (which clangd appends to the message) is not modelled: it throws.
 */
export async function clangFindings(root: string, files: readonly string[]): Promise<{ code: number; findings: Finding[] }> {
  const flags = readFileSync(join(root, "compile_flags.txt"), "utf8").split("\n").filter(Boolean);
  const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve, reject) =>
    execFile(
      "clang-14",
      ["-fsyntax-only", "-fno-color-diagnostics", "-fdiagnostics-print-source-range-info", "-fdiagnostics-parseable-fixits", ...flags, ...files],
      { cwd: root, maxBuffer: 64 << 20 },
      // Exit status 1 means "errors found".
      (error, _out, err) => (error && (error as { code?: unknown }).code !== 1 ? reject(error) : resolve({ code: error ? 1 : 0, stderr: err })),
    ),
  );
  const lines = new Map<string, string[]>();
  const codePoints = (path: string, line: number, byteColumn: number) => {
    const text = (lines.get(path) ?? lines.set(path, readFileSync(join(root, path), "utf8").split("\n")).get(path)!)[line - 1] ?? "";
    return (
      [
        ...Buffer.from(text)
          .subarray(0, byteColumn - 1)
          .toString("utf8"),
      ].length + 1
    );
  };
  // Each warning or error, with the fix-its printed after it and its notes, each with theirs.
  const found: { finding: Finding; fixIts: number; notes: number[] }[] = [];
  for (const line of stderr.split("\n")) {
    const last = found.at(-1);
    if (line.startsWith("fix-it:") && last) {
      if (last.notes.length === 0) last.fixIts++;
      else last.notes[last.notes.length - 1]!++;
      continue;
    }
    const diagnostic = /^(\S+?):(\d+):(\d+):((?:\{\d+:\d+-\d+:\d+\})*):? (error|warning|note): (.*)$/.exec(line);
    if (!diagnostic) continue;
    const [, path, row, column, ranges, severity, text] = diagnostic;
    if (severity === "note") {
      last?.notes.push(0);
      continue;
    }
    const at = { line: Number(row), column: Number(column) };
    const holding = [...ranges!.matchAll(/\{(\d+):(\d+)-(\d+):(\d+)\}/g)]
      .map(([, l1, c1, l2, c2]) => ({ start: { line: Number(l1), column: Number(c1) }, end: { line: Number(l2), column: Number(c2) } }))
      .find(({ start, end }) => before(start, at) && before(at, end));
    const start = holding?.start ?? at;
    const flag = /^(.*) \[(-W[^\]]+)\]$/.exec(text!);
    const message = flag ? flag[1]! : text!;
    const position = { line: start.line, column: codePoints(path!, start.line, start.column) };
    found.push({
      finding: {
        path: path!,
        range: { start: position, end: position },
        severity: severity!,
        code: flag ? flag[2]! : null,
        message: message[0]!.toUpperCase() + message.slice(1),
      },
      fixIts: 0,
      notes: [],
    });
  }
  return {
    code,
    findings: found.map(({ finding, fixIts, notes }) => {
      if (notes.includes(0)) throw new Error(`a note without a fix-it is not modelled: ${finding.message}`);
      const fixes = (fixIts > 0 ? 1 : 0) + notes.length;
      return fixes === 0 ? finding : { ...finding, message: `${finding.message} (${fixes === 1 ? "fix" : "fixes"} available)` };
    }),
  };
}

const before = (a: { line: number; column: number }, b: { line: number; column: number }) => a.line < b.line || (a.line === b.line && a.column <= b.column);
