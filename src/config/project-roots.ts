import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { detectLanguages } from "./detect-languages.js";
import type { PROJECT_KINDS } from "./schema.js";

/** Which projects a server answers files under: the kinds of configuration root it reads. */
export type ProjectKind = (typeof PROJECT_KINDS)[number];

/** A table in a shared file that makes its folder a root: `[tool.pyright]` in a pyproject.toml. */
export interface TableMarker {
  readonly file: string;
  readonly table: RegExp;
}

/**
 * What makes a folder a project root of one kind, as the language that reads such roots says it
 * (the registry's `ROOT_MARKERS`, src/languages/): a file of its own, or a table in a shared file.
 */
export interface RootMarkers {
  readonly files: readonly string[];
  readonly tables: readonly TableMarker[];
  /** Folders whose markers are never roots (a build's output, which copies its sources' markers). */
  readonly outputFolders: readonly string[];
  /**
   * Of the roots found (relative to `root`, sorted), those the checker takes as projects of their
   * own; absent: every one.
   */
  readonly narrow?: (root: string, found: readonly string[]) => Promise<string[]>;
}

/**
 * The project roots of a kind under a folder, as the languages' registry finds them
 * (`projectRootsIn`): the config knows the kinds its `projects` key names, never their markers.
 */
export type ProjectRootsFinder = (root: string, kind: ProjectKind) => Promise<string[]>;

/** Roots kept at most: each is a workspace folder or a linked project of one server process. */
const MAX_ROOTS = 1000;

/**
 * The project roots `markers` make under the workspace `root`, as folders relative to it ("" for
 * the root itself, "/" separators), sorted: every folder whose configuration file (or table) the
 * checker's CLI, run from that folder, would read, less those under an output folder and those
 * the markers' `narrow` leaves out. Files come from git (tracked and untracked, not ignored) or a
 * walk that skips dependencies and dot-folders, as the default's detection lists them. Never
 * throws: an unreadable file is no root.
 */
export async function findProjectRoots(root: string, markers: RootMarkers): Promise<string[]> {
  const names = new Set([...markers.files, ...markers.tables.map(({ file }) => file)]);
  const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: names, maxCollected: MAX_ROOTS * 4 });
  const roots = new Set<string>();
  for (const path of collected) {
    if (markers.outputFolders.some((folder) => path.split("/").includes(folder))) continue;
    const name = basename(path);
    const tables = markers.tables.filter(({ file }) => file === name);
    if (!markers.files.includes(name)) {
      if (tables.length === 0) continue;
      const text = await readFile(join(root, path), "utf8").catch(() => "");
      if (!tables.some(({ table }) => table.test(text))) continue;
    }
    roots.add(folderOf(path));
  }
  const found = [...roots].sort();
  return (markers.narrow ? await markers.narrow(root, found) : found).slice(0, MAX_ROOTS);
}

/** Whether the folder `folder` (absolute) is a project root by `markers`, as `findProjectRoots` judges each folder. */
export function isProjectRoot(folder: string, markers: RootMarkers): boolean {
  if (markers.files.some((name) => existsSync(join(folder, name)))) return true;
  return markers.tables.some(({ file, table }) => {
    try {
      return table.test(readFileSync(join(folder, file), "utf8"));
    } catch {
      return false;
    }
  });
}

/** The folder of a relative path, "" for a file at the root. */
function folderOf(path: string): string {
  const folder = dirname(path);
  return folder === "." ? "" : folder;
}
