import { accessSync, constants, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

/**
 * `setpriv --pdeathsig SIGKILL`: the kernel SIGKILLs a process when its parent dies, however the
 * parent dies (SIGKILL included, when no handler can run). setpriv sets PR_SET_PDEATHSIG and then
 * exec()s the command, which keeps setpriv's pid and process group. Used by the supervisor for
 * the language server and by the Maude server for each maude check.
 */

/** Where util-linux installs setpriv on Debian and most distributions. */
const CANDIDATES = ["/usr/bin/setpriv", "/bin/setpriv"];
let found: string | null | undefined;

/** The absolute path of setpriv, or undefined when it is not installed. Looked up once a process. */
export function findSetpriv(): string | undefined {
  found ??= CANDIDATES.find((path) => executableBy(path)) ?? null;
  return found ?? undefined;
}

function executableBy(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file and argv that start `command args` so that it dies with its parent. Without setpriv
 * the command starts directly: the caller's own reaping still holds, only the
 * SIGKILL-the-parent case then waits for a sweep.
 */
export function withParentDeathSignal(setpriv: string | undefined, command: string, args: readonly string[]): { file: string; argv: string[] } {
  if (setpriv === undefined) return { file: command, argv: [...args] };
  return { file: setpriv, argv: ["--pdeathsig", "SIGKILL", "--", command, ...args] };
}

/** Poll interval while setpriv hands over to the server: exec takes microseconds to milliseconds. */
const EXEC_POLL_MS = 2;

/**
 * Resolves true once process `pid` no longer runs `wrapper` (setpriv has exec'd the command), and
 * false when it exits first or the deadline passes. Node's `spawn` event only confirms the exec
 * of setpriv itself; a failure of the second exec shows up as setpriv exiting with 126/127.
 */
export async function waitForExecPast(pid: number, wrapper: string, deadlineMs: number, hasExited: () => boolean): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (!hasExited() && Date.now() < until) {
    const argv0 = readArgv0(pid);
    if (argv0 !== undefined && argv0 !== "" && argv0 !== wrapper) return true;
    await delay(EXEC_POLL_MS);
  }
  return false;
}

/** argv[0] from /proc/PID/cmdline; "" for a zombie, undefined when gone. */
function readArgv0(pid: number): string | undefined {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    const nul = cmdline.indexOf("\0");
    return nul < 0 ? cmdline : cmdline.slice(0, nul);
  } catch {
    return undefined;
  }
}
