/**
 * Makes the kernel kill a check's maude when the server dies, however it dies (SIGKILL included,
 * when no handler of ours can run). util-linux `setpriv --pdeathsig SIGKILL` sets
 * PR_SET_PDEATHSIG and then exec()s maude, so maude keeps setpriv's pid and process group.
 * Without setpriv, maude starts directly and only the server's own exit handlers (and the bridge's
 * supervision) end it.
 */
import { accessSync, constants } from "node:fs";

const CANDIDATES = ["/usr/bin/setpriv", "/bin/setpriv"];
let cached: string | null | undefined;

/** The absolute path of setpriv, or null when it is not installed. Looked up once. */
export function findSetpriv(): string | null {
  if (cached !== undefined) return cached;
  cached = null;
  for (const path of CANDIDATES) {
    try {
      accessSync(path, constants.X_OK);
      cached = path;
      break;
    } catch {
      // Not here; try the next place.
    }
  }
  return cached;
}

/** The file and argv that run `command args` with a parent-death SIGKILL when possible. */
export function withParentDeathSignal(command: string, args: readonly string[]): { file: string; args: string[] } {
  const setpriv = findSetpriv();
  if (setpriv === null) return { file: command, args: [...args] };
  return { file: setpriv, args: ["--pdeathsig", "SIGKILL", "--", command, ...args] };
}
