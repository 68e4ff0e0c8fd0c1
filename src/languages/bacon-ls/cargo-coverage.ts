import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, normalize } from "node:path";
import { parse } from "smol-toml";
import { gitTopLevel } from "../../config/discover-config.js";
import type { UncheckedFiles } from "../coverage.js";

/**
 * Which files of a workspace bacon-ls's `cargo check` cannot answer. bacon-ls runs one cargo
 * project, the one it finds at its start (the git top-level when that holds a Cargo.toml, else the
 * workspace root when that does), and publishes only what that run finds: a crate below the root
 * that is no member of it (no Cargo.toml at the root, a crate outside the root's cargo workspace,
 * or one its `exclude` names) would read as clean, and with no Cargo.toml at all the run fails and never settles.
 * Such files are not checked, each with the reason and how to check it. Null when every file is
 * the run's to answer. `cargoRoots` finds the crates and cargo workspaces under a folder (members
 * left out), as the registry gives it.
 */
export async function cargoCoverage(workspaceRoot: string, cargoRoots: (root: string) => Promise<string[]>): Promise<UncheckedFiles | null> {
  const top = gitTopLevel(workspaceRoot);
  if (top !== null && top !== workspaceRoot && existsSync(join(top, "Cargo.toml"))) return null;
  const roots = await cargoRoots(workspaceRoot);
  const atRoot = roots.includes("");
  // The crates and cargo workspaces that no cargo workspace at the root holds (`cargoRoots` leaves members out).
  const apart = [...roots.filter((root) => root !== ""), ...(atRoot ? await excludedFolders(workspaceRoot) : [])].sort((a, b) => b.length - a.length);
  if (atRoot && apart.length === 0) return null;
  const runs = atRoot ? "the workspace root's cargo project" : "cargo at the workspace root, which has no Cargo.toml";
  return (path) => {
    const own = apart.find((root) => path.startsWith(`${root}/`));
    if (own !== undefined) return `bacon-ls runs ${runs}, and ${own} is a cargo project apart from it; a [[workspace]] rooted at ${own} checks it`;
    return atRoot ? null : `bacon-ls runs ${runs}; this file belongs to no cargo project`;
  };
}

/** The folders the root's cargo workspace excludes (`[workspace] exclude`), relative to it; none when it has no such key or cannot be read. */
async function excludedFolders(workspaceRoot: string): Promise<string[]> {
  try {
    const manifest = parse(await readFile(join(workspaceRoot, "Cargo.toml"), "utf8")) as { workspace?: { exclude?: unknown } };
    const exclude = manifest.workspace?.exclude;
    if (!Array.isArray(exclude)) return [];
    return exclude
      .filter((entry): entry is string => typeof entry === "string")
      .map((entry) => normalize(entry).replace(/\/+$/, ""))
      .filter((entry) => entry !== "." && entry !== "" && !entry.startsWith(".."));
  } catch {
    return [];
  }
}
