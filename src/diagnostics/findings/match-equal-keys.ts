/** Which items of two lists are the same one, by key. */
interface KeyMatch {
  /** For each item of `now`, by index: the index in `then` of the item it is, or -1 when it is new. */
  readonly partnerOf: readonly number[];
  /** The indexes of the items of `then` that no item of `now` is, ascending. */
  readonly untaken: readonly number[];
}

/**
 * The one rule by which lspmcp tells an old finding from a new one (`since`, `changes` and
 * `check --baseline`): among items of equal key, the k-th of `now` is the k-th of `then`, each
 * list in its own order. So a finding that moved keeps its partner while a second copy of it is
 * new. Pure: the keys say everything about sameness.
 */
export function matchEqualKeys(now: readonly string[], then: readonly string[]): KeyMatch {
  const waiting = new Map<string, number[]>();
  then.forEach((key, index) => {
    const queue = waiting.get(key);
    if (queue) queue.push(index);
    else waiting.set(key, [index]);
  });
  const taken = new Set<number>();
  const partnerOf = now.map((key) => {
    const partner = waiting.get(key)?.shift();
    if (partner === undefined) return -1;
    taken.add(partner);
    return partner;
  });
  const untaken = then.flatMap((_, index) => (taken.has(index) ? [] : [index]));
  return { partnerOf, untaken };
}
