import type { BridgeDiagnostic } from "../../contract/diagnostic-order.js";

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
 * the same content. Among equal findings the k-th of now takes the k-th of the revision, both
 * lists in canonical order, so code that moved keeps its findings unchanged while a second copy
 * of an error is introduced. Order within each result is the order of its input.
 */
export function splitSince<T extends PlacedDiagnostic>(
  current: readonly T[],
  revision: readonly T[],
  currentPath: (workspace: string, revisionPath: string) => string,
): SinceSplit<T> {
  const waiting = new Map<string, number[]>();
  revision.forEach((item, index) => {
    const key = identity(item, currentPath(item.workspace, item.diagnostic.path));
    const queue = waiting.get(key);
    if (queue) queue.push(index);
    else waiting.set(key, [index]);
  });
  const matched = new Set<number>();
  const introduced: T[] = [];
  const unchanged: T[] = [];
  for (const item of current) {
    const partner = waiting.get(identity(item, item.diagnostic.path))?.shift();
    if (partner === undefined) introduced.push(item);
    else {
      matched.add(partner);
      unchanged.push(item);
    }
  }
  const resolved = revision.filter((_, index) => !matched.has(index));
  return { introduced, unchanged, resolved };
}

function identity(item: PlacedDiagnostic, path: string): string {
  const { severity, source, code, message } = item.diagnostic;
  return JSON.stringify([item.workspace, path, severity, source, code, message, item.line]);
}
