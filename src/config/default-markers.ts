import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";

/**
 * A marker of a profile's `[default]` table, parsed: a file that shows a language or configures a
 * server by its presence, or a table inside a shared file ("pyproject.toml [tool.ruff]"), which
 * only that file's contents show.
 */
export interface Marker {
  /** As the profile writes it; the key the plan's `serves` and reasons name. */
  readonly key: string;
  readonly file: string;
  /** Matches the table's header, or its sub-tables' (`[tool.ruff.lint]`); null for a whole file. */
  readonly table: RegExp | null;
}

/** Parses a marker as the schema admits it: `FILE` or `FILE [TABLE]`. */
export function parseMarker(key: string): Marker {
  const match = /^(\S+) \[(.+)\]$/.exec(key);
  if (match === null) return { key, file: key, table: null };
  const table = match[2]!.replaceAll(".", "\\.");
  // A table's name must match whole: [tool.ty] is not [tool.tyre].
  return { key, file: match[1]!, table: new RegExp(`^\\[${table}[.\\]]`, "m") };
}

/**
 * The keys of the table markers found in `paths` (relative to `root`): each is looked for in
 * every copy of its file there (a monorepo's Python package in `py/` has its own pyproject.toml).
 * Each file is read once; an unreadable one has none.
 */
export async function tableMarkersIn(root: string, markers: readonly Marker[], paths: readonly string[]): Promise<Set<string>> {
  const texts = new Map<string, Promise<string>>();
  const textOf = (path: string) => {
    let text = texts.get(path);
    if (text === undefined) texts.set(path, (text = readFile(join(root, path), "utf8").catch(() => "")));
    return text;
  };
  const found = new Set<string>();
  for (const { key, file, table } of markers) {
    if (table === null) continue;
    for (const path of paths) {
      if (basename(path) !== file || !table.test(await textOf(path))) continue;
      found.add(key);
      break;
    }
  }
  return found;
}
