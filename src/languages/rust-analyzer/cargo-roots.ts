import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RootMarkers } from "../../config/project-roots.js";

/**
 * Rust's project roots: every crate and cargo workspace (a Cargo.toml), less a crate inside a
 * cargo workspace (the workspace loads its members) and anything under a `target` folder (a
 * build's packaged copies).
 */
export const CARGO_ROOT_MARKERS: RootMarkers = { files: ["Cargo.toml"], tables: [], outputFolders: ["target"], narrow: outsideCargoWorkspaces };

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
