import type { ChangeReach } from "../../lsp/project-model.js";

/** How many files' importers one change may ask for before every kept answer is dropped instead. */
const MAX_IMPORTER_QUESTIONS = 32;

/**
 * What TypeScript's change reach asks the server's program about an edited file, to keep the answers no change
 * reaches: its declaration shape before the server hears of the change and after (equal shapes:
 * the change reaches no other file), and the files that import it. Null shape: it cannot be
 * told, so every file may be reached.
 */
export interface ChangeQueries {
  shapeBefore(path: string): Promise<string | null>;
  /** `text`: what the server now holds of the file when that is not the disk's (a preview's). */
  shapeAfter(path: string, text?: string): Promise<string | null>;
  importers(path: string): Promise<string[]>;
}

/**
 * What edits reach, by TypeScript's rule. An edit of a source file that is a module reaches the
 * file itself; when what other files see of it (its declaration shape, asked of the server's
 * program before it hears of the edit and after) changed too, it also reaches every file that
 * imports it, transitively, as asked after the edit. That is a superset of the compiler's own
 * rule, which goes past the direct importers only through files whose own declarations changed.
 * A file whose shape cannot be told (a config or JSON file, a script, a global augmentation,
 * overloads...), or a server that cannot say, may reach every file.
 */
export function reachByShapes(queries: ChangeQueries): ChangeReach {
  return {
    before: async (paths) => {
      const before = new Map<string, string>();
      for (const path of paths) {
        try {
          const shape = await queries.shapeBefore(path);
          if (shape === null) return null;
          before.set(path, shape);
        } catch {
          // No project holds it any more, or the server could not say: nothing is known to be unreached.
          return null;
        }
      }
      return (shown = () => undefined) => reachAfter(queries, before, shown);
    },
  };
}

/** The files the edits reach in the server's program after them (the edited files among them), or null for "every file". */
async function reachAfter(
  queries: ChangeQueries,
  before: ReadonlyMap<string, string>,
  shown: (path: string) => string | undefined,
): Promise<Set<string> | null> {
  try {
    const reached = new Set<string>();
    // Each question costs the server a look through the whole program: past a bound, asking
    // every file again costs less than finding out which ones to ask. Every file queued is asked
    // once, so a walk whose asked and waiting files already pass the bound stops before asking.
    // A changed file's importers are asked only when its shape changed (an edit that keeps it,
    // the common one, asks nothing more); after the change as before it, since its own text
    // cannot change which unchanged files import it.
    const asked = new Set<string>();
    const waiting = new Set<string>();
    const queue: string[] = [];
    const enqueue = (path: string): void => {
      if (asked.has(path) || waiting.has(path)) return;
      waiting.add(path);
      queue.push(path);
    };
    for (const [path, shape] of before) {
      reached.add(path);
      const after = await queries.shapeAfter(path, shown(path));
      if (after === null) return null;
      if (after !== shape) enqueue(path);
    }
    while (queue.length > 0) {
      if (asked.size + waiting.size > MAX_IMPORTER_QUESTIONS) return null;
      const path = queue.pop()!;
      waiting.delete(path);
      reached.add(path);
      if (asked.has(path)) continue;
      asked.add(path);
      for (const importer of await queries.importers(path)) enqueue(importer);
    }
    return reached;
  } catch {
    return null;
  }
}
