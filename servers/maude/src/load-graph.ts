/**
 * Which files a check will load. Maude resolves `load`/`in`/`sload` relative to the directory
 * of the file that says it, trying the name as written, then with `.maude`, then with `.fm`, and
 * names files in warnings by their base name only. To attribute a warning to the right file, the
 * server follows the directives itself (from disk, bounded) and maps base names to paths.
 */
import { statSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { outlineMaude } from "./outline.js";

const SUFFIXES = ["", ".maude", ".fm"];
// Enough for any real project; a cycle or a huge tree stops here instead of running away.
const MAX_FILES = 256;

/** The file a directive names, as Maude would find it from `fromDir`, or null. */
export function resolveLoadTarget(fromDir: string, path: string): string | null {
  const base = isAbsolute(path) ? path : resolve(fromDir, path);
  for (const suffix of SUFFIXES) {
    try {
      if (statSync(base + suffix).isFile()) return base + suffix;
    } catch {
      // Not there with this suffix; try the next.
    }
  }
  return null;
}

/**
 * Base name → absolute path for the main file and everything it loads, transitively. The main
 * file wins its base name; otherwise the first file reached (in load order) does.
 * @param readText returns a file's text, or null when it cannot be read.
 */
export function collectLoadedFiles(mainPath: string, mainText: string, readText: (path: string) => string | null): Map<string, string> {
  const byBase = new Map<string, string>([[basename(mainPath), mainPath]]);
  const seen = new Set<string>([mainPath]);
  const queue: Array<{ path: string; text: string }> = [{ path: mainPath, text: mainText }];
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const { path, text } = queue.shift() as { path: string; text: string };
    for (const load of outlineMaude(text).loads) {
      const target = resolveLoadTarget(dirname(path), load.path);
      if (target === null || seen.has(target)) continue;
      seen.add(target);
      if (!byBase.has(basename(target))) byBase.set(basename(target), target);
      const loaded = readText(target);
      if (loaded !== null) queue.push({ path: target, text: loaded });
    }
  }
  return byBase;
}
