import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute } from "node:path";

/** Why an executable cannot be started, as a contract-shaped detail; undefined when it can. */
export interface ExecutableProblem {
  readonly message: string;
  readonly details: { readonly command: string; readonly errno: string };
}

/**
 * Checks, before anything is spawned, the failures that would otherwise only show up as an exit
 * code 127/126 from inside setpriv: a relative path, a missing file, a directory, no execute bit.
 */
export function checkExecutable(command: string): ExecutableProblem | undefined {
  const problem = (errno: string, why: string): ExecutableProblem => ({
    message: `cannot start ${command}: ${why}`,
    details: { command, errno },
  });
  if (!isAbsolute(command)) return problem("EINVAL", "not an absolute path");
  try {
    if (!statSync(command).isFile()) return problem("EACCES", "not a regular file");
    accessSync(command, constants.X_OK);
    return undefined;
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? "UNKNOWN";
    return problem(errno, errno === "ENOENT" ? "no such file" : errno === "EACCES" ? "permission denied" : errno);
  }
}
