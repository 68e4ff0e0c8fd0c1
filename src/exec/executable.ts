import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/**
 * The one rule for "which file does this command run", shared by the config loader, the
 * supervisor and the Maude server, so that the three never disagree about a command.
 */

/** Why a path cannot be exec'd: it is missing, not a regular file, or has no execute bit for us. */
export interface ExecutableProblem {
  readonly kind: "missing" | "not-a-file" | "not-executable";
  /** The errno an exec would have met (ENOENT, EACCES, ...). */
  readonly errno: string;
}

/** What a lookup found: the absolute path, or the path that is not executable, or nothing on PATH. */
type ExecutableLookup =
  | { readonly found: true; readonly path: string }
  | { readonly found: false; readonly path: string; readonly problem: ExecutableProblem }
  | { readonly found: false; readonly path: null };

/**
 * Resolves `command` the way a shell would, without running anything: a name containing "/" is a
 * path (relative to `baseDir`, or absolute); a bare name is looked up in `searchPath` (PATH
 * syntax). Empty and relative PATH entries are skipped: in a shell they mean the current
 * directory, and what a bridge or server runs must not depend on the folder it was started in.
 * The path found is absolute but not realpath'd, so `node_modules/.bin` links keep working.
 * Never throws.
 */
export function findExecutable(command: string, searchPath: string | undefined, baseDir: string): ExecutableLookup {
  if (command.includes("/")) {
    const path = isAbsolute(command) ? command : resolve(baseDir, command);
    const problem = executableProblem(path);
    return problem === undefined ? { found: true, path } : { found: false, path, problem };
  }
  for (const dir of (searchPath ?? "").split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const path = join(dir, command);
    if (executableProblem(path) === undefined) return { found: true, path };
  }
  return { found: false, path: null };
}

/** Why `path` cannot be exec'd, or undefined when it is an executable regular file. */
function executableProblem(path: string): ExecutableProblem | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    return { kind: "missing", errno: (error as NodeJS.ErrnoException).code ?? "UNKNOWN" };
  }
  if (!isFile) return { kind: "not-a-file", errno: "EACCES" };
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    return { kind: "not-executable", errno: (error as NodeJS.ErrnoException).code ?? "UNKNOWN" };
  }
}

/** Why a server cannot be started, as a contract-shaped detail. */
interface StartProblem {
  readonly message: string;
  readonly details: { readonly command: string; readonly errno: string };
}

/**
 * Checks, before anything is spawned, the failures that would otherwise only show up as an exit
 * code 127/126 from inside setpriv: a relative path, a missing file, a directory, no execute bit.
 * Undefined when `command` can be started.
 */
export function checkExecutable(command: string): StartProblem | undefined {
  const problem = (errno: string, why: string): StartProblem => ({
    message: `cannot start ${command}: ${why}`,
    details: { command, errno },
  });
  if (!isAbsolute(command)) return problem("EINVAL", "not an absolute path");
  const found = executableProblem(command);
  if (found === undefined) return undefined;
  if (found.kind === "not-a-file") return problem(found.errno, "not a regular file");
  const { errno } = found;
  return problem(errno, errno === "ENOENT" ? "no such file" : errno === "EACCES" ? "permission denied" : errno);
}
