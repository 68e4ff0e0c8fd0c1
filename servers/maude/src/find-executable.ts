/**
 * Resolves a command name to the absolute path of an executable file, the way a shell would:
 * a name with a slash is a path (relative to `cwd`), a bare name is looked up on PATH.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** The absolute path of `command`, or null when there is no such executable file. */
export function findExecutable(command: string, pathEnv: string | undefined, cwd: string): string | null {
  if (command.includes("/")) {
    const abs = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(abs) ? abs : null;
  }
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
