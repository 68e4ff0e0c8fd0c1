import type { BridgeDiagnostic } from "../../contract/diagnostic-order.js";
import { matchEqualKeys } from "./match-equal-keys.js";

/** A diagnostic with what matching needs beside it: its workspace and its start line's content. */
export interface PlacedDiagnostic {
  readonly workspace: string;
  readonly diagnostic: BridgeDiagnostic;
  /** `lineContents` of the start line: trimmed, inner whitespace runs made one space. */
  readonly line: string;
}

/** The two lists split: each current finding is introduced or unchanged; each old one unchanged or resolved. */
export interface SinceSplit<T> {
  readonly introduced: T[];
  readonly unchanged: T[];
  readonly resolved: T[];
}

/**
 * Matches the findings of now against those of the revision as `check --baseline` matches
 * (CONTRACT §4.3): the same finding is in the same file (an old path is first carried through
 * `currentPath`, git's renames), with the same severity, source, code and message, on a line with
 * the same content. Among equal findings the k-th of now is the k-th of the revision
 * (`matchEqualKeys`), both lists in canonical order, so code that moved keeps its findings
 * unchanged while a second copy of an error is introduced. Order within each result is the order
 * of its input.
 */
export function splitSince<T extends PlacedDiagnostic>(
  current: readonly T[],
  revision: readonly T[],
  currentPath: (workspace: string, revisionPath: string) => string,
): SinceSplit<T> {
  const { partnerOf, untaken } = matchEqualKeys(
    current.map((item) => identity(item, item.diagnostic.path)),
    revision.map((item) => identity(item, currentPath(item.workspace, item.diagnostic.path))),
  );
  const introduced = current.filter((_, index) => partnerOf[index] === -1);
  const unchanged = current.filter((_, index) => partnerOf[index] !== -1);
  const resolved = untaken.map((index) => revision[index]!);
  return { introduced, unchanged, resolved };
}

function identity(item: PlacedDiagnostic, path: string): string {
  const { severity, source, code, message } = item.diagnostic;
  return JSON.stringify([item.workspace, path, severity, source, code, message, item.line]);
}
