import { findExecutable, type ExecutableProblem } from "../exec/executable.js";
import { locateDependencyPath } from "./package-dependency.js";
import { expandToolCache } from "./tool-cache.js";

/** An absolute executable path, or why there is none. */
type ExecutableResult = { ok: true; path: string } | { ok: false; message: string };

const PROBLEM_WORDS: Readonly<Record<ExecutableProblem["kind"], string>> = {
  missing: "executable not found",
  "not-a-file": "not a file",
  "not-executable": "not executable",
};

/**
 * Resolves a command at load time by the supervisor's own rule (`findExecutable`): a name
 * containing "/" is a path relative to `baseDir` (or absolute); a bare name is looked up in
 * `searchPath` (PATH syntax), skipping empty and relative entries; a leading `{cache}/` names
 * lspmcp's tool cache (`tool-cache.ts`). Never throws.
 */
export async function resolveExecutable(command: string, baseDir: string, searchPath: string): Promise<ExecutableResult> {
  const lookup = findExecutable(expandToolCache(command), searchPath, baseDir);
  if (lookup.found) return { ok: true, path: lookup.path };
  if (lookup.path === null) return { ok: false, message: `"${command}" not found on PATH` };
  return { ok: false, message: `${PROBLEM_WORDS[lookup.problem.kind]}: ${lookup.path}` };
}

/**
 * Resolves a command a profile names, relative to the lspmcp package root: a path under
 * `node_modules/` is one of lspmcp's dependencies, found where Node finds it
 * (`package-dependency.ts`), so that lspmcp installed as another project's dependency, its own
 * hoisted beside it or kept in pnpm's store, finds them; anything else as `resolveExecutable`.
 */
export async function resolveProfileExecutable(command: string, packageRoot: string, searchPath: string): Promise<ExecutableResult> {
  const located = locateDependencyPath(command, packageRoot);
  if (located === null) return resolveExecutable(command, packageRoot, searchPath);
  if (!located.ok) return { ok: false, message: `executable not found: ${command} (${located.message})` };
  return resolveExecutable(located.path, packageRoot, searchPath);
}
