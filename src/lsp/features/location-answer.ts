import { Location, LocationLink, type Range } from "vscode-languageserver-protocol";

/** One target of a navigation answer, whichever LSP shape it came in. */
export interface TargetLocation {
  readonly uri: string;
  /** The whole target: `Location.range`, or `LocationLink.targetRange`. */
  readonly range: Range;
  /** The name: `LocationLink.targetSelectionRange`, or the range again for a plain `Location`. */
  readonly selectionRange: Range;
}

/**
 * Normalizes what `definition`, `declaration`, `typeDefinition`, `implementation` and
 * `references` may answer (null, a `Location`, `Location[]` or `LocationLink[]`) into targets.
 * Entries that are neither shape are dropped: a server's malformed item must not fail the call.
 */
export function targetsOf(answer: Location | readonly (Location | LocationLink)[] | null | undefined): TargetLocation[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer as Location];
  const targets: TargetLocation[] = [];
  for (const entry of list) {
    if (LocationLink.is(entry)) {
      targets.push({ uri: entry.targetUri, range: entry.targetRange, selectionRange: entry.targetSelectionRange });
    } else if (Location.is(entry)) {
      targets.push({ uri: entry.uri, range: entry.range, selectionRange: entry.range });
    }
  }
  return targets;
}
