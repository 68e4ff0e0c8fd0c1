import { accessSync, constants } from "node:fs";

/** Where util-linux installs setpriv on Debian and most distributions. */
const CANDIDATES = ["/usr/bin/setpriv", "/bin/setpriv"];

/** The absolute path of setpriv, or undefined when it is not installed. */
export function findSetpriv(): string | undefined {
  for (const path of CANDIDATES) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // try the next
    }
  }
  return undefined;
}

/**
 * The argv that starts `command` so that the kernel SIGKILLs it when its parent (the supervisor)
 * dies, however it dies. setpriv sets PR_SET_PDEATHSIG and then exec()s, so the server keeps
 * setpriv's pid. Without setpriv the server starts directly: the supervisor's own reaping and the
 * orphan sweep still hold, only the SIGKILL-the-supervisor case waits for the sweep.
 */
export function withParentDeathSignal(
  setpriv: string | undefined,
  command: string,
  args: readonly string[],
): { file: string; argv: string[] } {
  if (setpriv === undefined) return { file: command, argv: [...args] };
  return { file: setpriv, argv: ["--pdeathsig", "SIGKILL", "--", command, ...args] };
}
