import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { detectLanguages } from "./detect-languages.js";
import type { PROJECT_KINDS } from "./schema.js";

/** Which projects a server answers files under: the kinds of configuration root it reads. */
export type ProjectKind = (typeof PROJECT_KINDS)[number];

/** A table in a shared file that makes its folder a root: `[tool.pyright]` in a pyproject.toml. */
interface TableMarker {
  readonly file: string;
  readonly table: RegExp;
}

/** What makes a folder a project root of each kind: a file of its own, or a table in a shared file. */
const ROOT_MARKERS: Readonly<Record<ProjectKind, { readonly files: readonly string[]; readonly tables: readonly TableMarker[] }>> = {
  // pyright reads pyrightconfig.json, else pyproject.toml's [tool.pyright]; basedpyright reads
  // [tool.basedpyright] too.
  pyright: { files: ["pyrightconfig.json"], tables: [pyproject("pyright")] },
  basedpyright: { files: ["pyrightconfig.json"], tables: [pyproject("basedpyright"), pyproject("pyright")] },
  ty: { files: ["ty.toml"], tables: [pyproject("ty")] },
  cargo: { files: ["Cargo.toml"], tables: [] },
  // The server finds each file's project itself: these are said, not told.
  typescript: { files: ["tsconfig.json", "jsconfig.json"], tables: [] },
};

function pyproject(tool: string): TableMarker {
  return { file: "pyproject.toml", table: new RegExp(`^\\[tool\\.${tool}[.\\]]`, "m") };
}

/** Roots kept at most: each is a workspace folder or a linked project of one server process. */
const MAX_ROOTS = 1000;

/**
 * The project roots of `kind` under the workspace `root`, as folders relative to it ("" for the
 * root itself, "/" separators), sorted: every folder whose configuration file (or table) the
 * checker's CLI, run from that folder, would read. Files come from git (tracked and untracked,
 * not ignored) or a walk that skips dependencies and dot-folders, as the default's detection
 * lists them. For cargo, a crate inside a cargo workspace is left out (the workspace loads its
 * members), and so is anything under a `target` folder. Never throws: an unreadable file is no root.
 */
export async function findProjectRoots(root: string, kind: ProjectKind): Promise<string[]> {
  const markers = ROOT_MARKERS[kind];
  const names = new Set([...markers.files, ...markers.tables.map(({ file }) => file)]);
  const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: names, maxCollected: MAX_ROOTS * 4 });
  const roots = new Set<string>();
  for (const path of collected) {
    if (kind === "cargo" && path.split("/").includes("target")) continue;
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
  return (kind === "cargo" ? await outsideCargoWorkspaces(root, found) : found).slice(0, MAX_ROOTS);
}

/** Whether the folder `folder` (absolute) is a project root of `kind`, as `findProjectRoots` judges each folder. */
export function isProjectRoot(folder: string, kind: ProjectKind): boolean {
  const markers = ROOT_MARKERS[kind];
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

/**
 * The crates and workspaces among `folders` that no cargo workspace above them contains: cargo
 * requires a crate below a workspace's folder to be its member (or excluded, which lspmcp takes
 * as rare enough to answer with the workspace), so the workspace's root alone is linked.
 */
async function outsideCargoWorkspaces(root: string, folders: readonly string[]): Promise<string[]> {
  const workspaces: string[] = [];
  for (const folder of folders) {
    const text = await readFile(join(root, folder, "Cargo.toml"), "utf8").catch(() => "");
    if (/^\[workspace[.\]]/m.test(text)) workspaces.push(folder);
  }
  const inside = (folder: string, workspace: string) => folder !== workspace && (workspace === "" || folder.startsWith(`${workspace}/`));
  return folders.filter((folder) => !workspaces.some((workspace) => inside(folder, workspace)));
}
