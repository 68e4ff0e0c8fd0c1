import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

/** Poll interval while setpriv hands over to the server: exec takes microseconds to milliseconds. */
const POLL_MS = 2;

/**
 * Resolves true once process `pid` no longer runs `wrapper` (setpriv has exec'd the server), and
 * false when it exits first or the deadline passes. Node's `spawn` event only confirms the exec
 * of setpriv itself; a failure of the second exec shows up as setpriv exiting with 126/127.
 */
export async function waitForExecPast(
  pid: number,
  wrapper: string,
  deadlineMs: number,
  hasExited: () => boolean,
): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (!hasExited() && Date.now() < until) {
    const argv0 = readArgv0(pid);
    if (argv0 !== undefined && argv0 !== "" && argv0 !== wrapper) return true;
    await delay(POLL_MS);
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
