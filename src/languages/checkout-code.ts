import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { detectLanguages } from "../config/detect-languages.js";
import { gitTopLevel } from "../config/discover-config.js";
import type { CheckoutCode } from "../config/schema.js";
import type { ResolvedServer } from "../config/types.js";

/** The folders a virtualenv is kept in beside a Python project's configuration, as the checkers look for them. */
export const ENVIRONMENT_FOLDERS = [".venv", "venv", ".env", "env"];
/** Files that make a folder a Python project whose environment a checker may run. */
const PYTHON_PROJECT_FILES = new Set(["pyproject.toml", "setup.py", "setup.cfg", "pyrefly.toml", "pyrightconfig.json"]);

/**
 * Why `server` would run the checkout's own code in the workspace at `root` (its profile's
 * `checkout_code`, each way looked for in the workspace), or null when it would run none:
 * restricted mode neither starts it there nor asks it of a file, and lists every such file as not
 * checked with this reason. Never throws: what cannot be read is not there.
 */
export async function checkoutCodeIn(server: Pick<ResolvedServer, "name" | "checkout_code" | "projects">, root: string): Promise<string | null> {
  for (const way of server.checkout_code) {
    const found = await lookFor(way, root, judgedRootByRoot(server));
    if (found !== null) return restrictedReason(server.name, way.what, found);
  }
  return null;
}

/** Why restricted mode does not ask `server` of a file: it would run `what`, found at `found` ("" where it runs whatever the workspace holds). */
export function restrictedReason(server: string, what: string, found: string): string {
  return `restricted mode: ${server} would run ${what}${found === "" ? "" : ` (${found})`}, and restricted mode runs none of the checkout's code`;
}

/** Where the workspace holds what `way` runs ("" where the server runs it whatever the workspace holds), or null. */
async function lookFor(way: CheckoutCode, root: string, rootByRoot: boolean): Promise<string | null> {
  switch (way.runs) {
    case "cargo-build":
    case "go-list":
      return "";
    case "workspace-compiler":
      // Project by project: the toolchain choice refuses a project's own compiler (`typescript/launch.ts`).
      return null;
    case "environment-interpreter":
      return (await ownEnvironment(root, rootByRoot)) ?? null;
    case "config-scripts": {
      const names = new Set(way.files ?? []);
      const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: names });
      return collected[0] ?? null;
    }
  }
}

/**
 * A Python environment of the checkout that a checker would run the interpreter of: the active
 * one (`VIRTUAL_ENV`, `CONDA_PREFIX`, which the server inherits) when it lies in the checkout, a
 * virtualenv folder in the workspace root or a folder above it up to the checkout's top, or —
 * unless the server is handed its configuration roots (`rootByRoot`: lspmcp leaves a refused root
 * out of them, and refuses that root's files alone, `python/environment-choice.ts`) — a
 * virtualenv beside any project's configuration in the workspace: pyrefly, which finds its
 * configurations itself, runs the interpreter of each one its indexing finds, asked of a file or
 * not.
 */
async function ownEnvironment(root: string, rootByRoot: boolean): Promise<string | null> {
  const checkout = gitTopLevel(root) ?? root;
  for (const variable of ["VIRTUAL_ENV", "CONDA_PREFIX"]) {
    const active = process.env[variable];
    if (active !== undefined && isAbsolute(active) && inside(checkout, active)) return `${variable}=${active}`;
  }
  for (let folder = root; inside(checkout, folder); folder = dirname(folder)) {
    for (const name of ENVIRONMENT_FOLDERS) {
      if (existsSync(join(folder, name, "pyvenv.cfg"))) return shown(root, join(folder, name));
    }
    if (folder === checkout || dirname(folder) === folder) break;
  }
  if (rootByRoot) return null;
  const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: PYTHON_PROJECT_FILES });
  for (const folder of new Set(collected.map((path) => join(root, dirname(path))))) {
    for (const name of ENVIRONMENT_FOLDERS) {
      if (existsSync(join(folder, name, "pyvenv.cfg"))) return shown(root, join(folder, name));
    }
  }
  return null;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/** A path as the reason shows it: relative to the root when inside it, else absolute. */
export function shown(root: string, path: string): string {
  return inside(root, path) ? relative(root, path) || "." : path;
}

/**
 * Whether restricted mode judges `server` root by root: it runs an environment's interpreter, and
 * lspmcp hands it its configuration roots (its `projects`), so a root left out of them is one it
 * never sets up. A server that finds its configurations itself (pyrefly) is judged on the whole
 * workspace (`ownEnvironment`).
 */
export function judgedRootByRoot(server: Pick<ResolvedServer, "checkout_code" | "projects">): boolean {
  return server.projects !== null && server.checkout_code.some((way) => way.runs === "environment-interpreter");
}
