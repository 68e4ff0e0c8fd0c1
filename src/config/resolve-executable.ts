import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** An absolute executable path, or why there is none. */
export type ExecutableResult = { ok: true; path: string } | { ok: false; message: string };

/**
 * Resolves a command the way a shell would, but at load time: a name containing "/" is a path
 * relative to `baseDir` (or absolute); a bare name is looked up in `searchPath` (PATH syntax). The
 * result is absolute but not realpath'd, so `node_modules/.bin` links keep working as installed.
 * Never throws.
 */
export async function resolveExecutable(command: string, baseDir: string, searchPath: string): Promise<ExecutableResult> {
  if (command.includes("/")) {
    const path = isAbsolute(command) ? command : resolve(baseDir, command);
    const problem = await whyNotExecutable(path);
    return problem === null ? { ok: true, path } : { ok: false, message: `${problem}: ${path}` };
  }
  // Empty PATH entries mean the current directory in POSIX shells; a bridge must not depend on
  // its cwd, so they are skipped, like relative entries.
  for (const dir of searchPath.split(delimiter).filter((entry) => isAbsolute(entry))) {
    const path = join(dir, command);
    if ((await whyNotExecutable(path)) === null) return { ok: true, path };
  }
  return { ok: false, message: `"${command}" not found on PATH` };
}

async function whyNotExecutable(path: string): Promise<string | null> {
  const stats = await stat(path).catch(() => null);
  if (stats === null) return "executable not found";
  if (!stats.isFile()) return "not a file";
  return access(path, constants.X_OK).then(
    () => null,
    () => "not executable",
  );
}
