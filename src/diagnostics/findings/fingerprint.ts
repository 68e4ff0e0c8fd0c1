import { createHash } from "node:crypto";
import type { FileDiagnostics } from "../run/file-diagnostics.js";

/**
 * The content of each line of `text` (split at LSP's terminators \n, \r\n and \r), trimmed and
 * with runs of whitespace made one space, so that re-indenting code keeps its fingerprints.
 */
export function lineContents(text: string): string[] {
  return text.split(LINE_BREAK).map(lineContent);
}

const LINE_BREAK = /\r\n|\r|\n/;

/** One line's content as `lineContents` gives it. */
function lineContent(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/**
 * The content (`lineContents`) of each finding's start line, by 1-based line: all that matching
 * and fingerprints need of the text an answer was computed on.
 */
export function startLines(answer: FileDiagnostics): ReadonlyMap<number, string> {
  // Only the start lines are made content: a file's other lines are never looked at.
  const lines = answer.diagnostics.length > 0 ? answer.text.split(LINE_BREAK) : [];
  return new Map(answer.diagnostics.map((d) => [d.range.start.line, lineContent(lines[d.range.start.line - 1] ?? "")]));
}

/**
 * A finding's identity for baselines: workspace, path, code, message and the content of its
 * start line, but not the line number, so code that moves keeps its fingerprint while a new
 * finding (or the same one on other code) gets a new one. 32 hex digits of SHA-256.
 */
export function fingerprint(parts: { workspace: string; path: string; code: string | null; message: string; line: string }): string {
  const identity = JSON.stringify([parts.workspace, parts.path, parts.code, parts.message, parts.line]);
  return createHash("sha256").update(identity).digest("hex").slice(0, 32);
}
