import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { detectLanguages } from "../config/detect-languages.js";
import { gitTopLevel } from "../config/discover-config.js";
import type { CheckoutCode } from "../config/schema.js";
import type { ResolvedServer } from "../config/types.js";

/** The folders a virtualenv is kept in beside a Python project's configuration, as the checkers look for them. */
const ENVIRONMENT_FOLDERS = [".venv", "venv", ".env", "env"];
/** Files that make a folder a Python project whose environment a checker may run. */
const PYTHON_PROJECT_FILES = new Set(["pyproject.toml", "setup.py", "setup.cfg", "pyrefly.toml", "pyrightconfig.json"]);

/**
 * Why `server` would run the checkout's own code in the workspace at `root` (its profile's
 * `checkout_code`, each way looked for in the workspace), or null when it would run none:
 * restricted mode neither starts it there nor asks it of a file, and lists every such file as not
 * checked with this reason. Never throws: what cannot be read is not there.
 */
export async function checkoutCodeIn(server: Pick<ResolvedServer, "name" | "checkout_code">, root: string): Promise<string | null> {
  for (const way of server.checkout_code) {
    const found = await lookFor(way, root);
    if (found !== null) return restrictedReason(server.name, way.what, found);
  }
  return null;
}

/** Why restricted mode does not ask `server` of a file: it would run `what`, found at `found` ("" where it runs whatever the workspace holds). */
export function restrictedReason(server: string, what: string, found: string): string {
  return `restricted mode: ${server} would run ${what}${found === "" ? "" : ` (${found})`}, and restricted mode runs none of the checkout's code`;
}

/** Where the workspace holds what `way` runs ("" where the server runs it whatever the workspace holds), or null. */
async function lookFor(way: CheckoutCode, root: string): Promise<string | null> {
  switch (way.runs) {
    case "cargo-build":
    case "go-list":
      return "";
    case "workspace-compiler":
      // Project by project: the toolchain choice refuses a project's own compiler (`typescript/launch.ts`).
      return null;
    case "environment-interpreter":
      return ownEnvironment(root);
    case "config-scripts": {
      const names = new Set(way.files ?? []);
      const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: names });
      return collected[0] ?? null;
    }
  }
}

/**
 * A Python environment of the checkout that a checker would run the interpreter of: the active
 * one (`VIRTUAL_ENV`, `CONDA_PREFIX`, which the server inherits) when it lies in the checkout, or
 * a virtualenv folder beside the root's or a project's configuration.
 */
async function ownEnvironment(root: string): Promise<string | null> {
  const checkout = gitTopLevel(root) ?? root;
  for (const variable of ["VIRTUAL_ENV", "CONDA_PREFIX"]) {
    const active = process.env[variable];
    if (active !== undefined && isAbsolute(active) && inside(checkout, active)) return `${variable}=${active}`;
  }
  const { collected } = await detectLanguages(root, { extensions: new Set(), filenames: new Set(), collect: PYTHON_PROJECT_FILES });
  const folders = new Set([root, ...collected.map((path) => join(root, dirname(path)))]);
  for (const folder of folders) {
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
