import { compareRanges, compareStrings, copyRange } from "./compare.js";
import { severityRank, type SeverityName } from "./names.js";
import type { BridgeRange } from "./positions.js";

/** The channel a diagnostic came from: a `textDocument/diagnostic` answer or `publishDiagnostics`. */
export type DiagnosticChannel = "pull" | "push";

/**
 * A diagnostic as the bridge shows it (CONTRACT §4). Key order is exactly the declaration order;
 * `code` is a string (numeric LSP codes in decimal) or null; `channels` is `["pull"]`, `["push"]`
 * or `["pull","push"]`, always in that order.
 */
export interface BridgeDiagnostic {
  path: string;
  range: BridgeRange;
  severity: SeverityName;
  code: string | null;
  source: string | null;
  message: string;
  channels: DiagnosticChannel[];
}

/** A diagnostic before merging, as one channel reported it. */
export type ChannelDiagnostic = Omit<BridgeDiagnostic, "channels">;

/**
 * The canonical order of CONTRACT §5: path, start line, start column, end line, end column,
 * severity (error first), source, code, message; null before strings, strings by code units.
 * Channels break the last tie so the order is total.
 */
export function compareDiagnostics(a: BridgeDiagnostic, b: BridgeDiagnostic): number {
  return compareChannelDiagnostics(a, b) || compareStrings(a.channels.join(","), b.channels.join(","));
}

/** A sorted copy of `items` in canonical order; the input is not changed. */
export function sortDiagnostics(items: readonly BridgeDiagnostic[]): BridgeDiagnostic[] {
  return [...items].sort(compareDiagnostics);
}

/**
 * Merges the two channels' answers for the same documents (null = that channel gave no answer).
 * Identical diagnostics (same path, range, severity, code, source, message) appear once: with
 * `["pull","push"]` when both channels had them, and once even when one channel repeated them.
 * The result is fresh objects in contract key order, sorted canonically.
 */
export function mergeDiagnostics(pull: readonly ChannelDiagnostic[] | null, push: readonly ChannelDiagnostic[] | null): BridgeDiagnostic[] {
  if (pull === null || push === null) return oneChannel(pull ?? push ?? [], pull === null ? "push" : "pull");
  const merged = new Map<string, BridgeDiagnostic>();
  const add = (items: readonly ChannelDiagnostic[] | null, channel: DiagnosticChannel): void => {
    for (const d of items ?? []) {
      const key = identity(d);
      const seen = merged.get(key);
      if (seen === undefined) merged.set(key, { ...fresh(d), channels: [channel] });
      else if (!seen.channels.includes(channel)) seen.channels.push(channel);
    }
  };
  // Pull first, so a diagnostic seen on both channels lists them as ["pull","push"].
  add(pull, "pull");
  add(push, "push");
  return [...merged.values()].sort(compareDiagnostics);
}

/**
 * One channel's answer merged: sorted, each identical diagnostic once. The order compares every
 * field of the identity, so identical ones are neighbours once sorted: no key is built for each.
 */
function oneChannel(items: readonly ChannelDiagnostic[], channel: DiagnosticChannel): BridgeDiagnostic[] {
  const sorted = items.map((d): BridgeDiagnostic => ({ ...fresh(d), channels: [channel] })).sort(compareChannelDiagnostics);
  return sorted.filter((d, index) => index === 0 || compareChannelDiagnostics(sorted[index - 1]!, d) !== 0);
}

function compareChannelDiagnostics(a: ChannelDiagnostic, b: ChannelDiagnostic): number {
  return (
    compareStrings(a.path, b.path) ||
    compareRanges(a.range, b.range) ||
    severityRank(a.severity) - severityRank(b.severity) ||
    compareStrings(a.source, b.source) ||
    compareStrings(a.code, b.code) ||
    compareStrings(a.message, b.message)
  );
}

// JSON of an array keeps null and "null" apart, and no separator can collide with a message.
function identity(d: ChannelDiagnostic): string {
  const { start, end } = d.range;
  return JSON.stringify([d.path, start.line, start.column, end.line, end.column, d.severity, d.code, d.source, d.message]);
}

function fresh(d: ChannelDiagnostic): ChannelDiagnostic {
  return {
    path: d.path,
    range: copyRange(d.range),
    severity: d.severity,
    code: d.code,
    source: d.source,
    message: d.message,
  };
}

/**
 * Merges the settled answers of several servers for the same files (CONTRACT §4, "Several servers
 * for one file"): an identical diagnostic (same path, range, severity, code, source, message)
 * appears once, with the channels of every answer that had it; the result is canonically ordered.
 */
export function mergeServerDiagnostics(answers: readonly (readonly BridgeDiagnostic[])[]): BridgeDiagnostic[] {
  // Only a file that more than one answer speaks of can hold the same diagnostic twice; the
  // others' lists are taken as they are (each is already one server's merged answer).
  const answersPerPath = new Map<string, number>();
  for (const answer of answers) if (answer[0]) answersPerPath.set(answer[0].path, (answersPerPath.get(answer[0].path) ?? 0) + 1);
  const alone: BridgeDiagnostic[] = [];
  const merged = new Map<string, BridgeDiagnostic>();
  for (const answer of answers) {
    if (answer[0] && answersPerPath.get(answer[0].path) === 1 && answer.every((d) => d.path === answer[0]!.path)) {
      alone.push(...answer);
      continue;
    }
    for (const d of answer) {
      const key = identity(d);
      const seen = merged.get(key);
      if (seen === undefined) merged.set(key, { ...fresh(d), channels: [...d.channels] });
      else seen.channels = (["pull", "push"] as const).filter((channel) => seen.channels.includes(channel) || d.channels.includes(channel));
    }
  }
  const all = [...alone, ...merged.values()];
  // One server's answers come in path order, each already sorted: one pass shows it.
  return inOrder(all) ? all : all.sort(compareDiagnostics);
}

function inOrder(items: readonly BridgeDiagnostic[]): boolean {
  for (let index = 1; index < items.length; index++) if (compareDiagnostics(items[index - 1]!, items[index]!) > 0) return false;
  return true;
}
