/**
 * V8's young generation for lspmcp's own Node processes: 2 MiB semi-spaces instead of Node 20's
 * 16 MiB. A bridge allocates a little per message and keeps almost none of it, so the scavenger
 * still finds the young generation nearly empty; the default let it grow to 32 MiB of resident
 * pages (bench/floor.mjs: ~14 MiB less RSS per process, no CPU change within the noise). V8
 * reads it only at start, so it is a command-line flag: the `lspmcp` entry's `#!` line carries it,
 * and every lspmcp process the bridge launches (the shared server, supervisors) gets it here.
 */
export const LEAN_HEAP_FLAG = "--max-semi-space-size=2";

/** `execArgv` with the lean heap flag, unless a semi-space size was chosen already. */
export function leanNodeArgs(execArgv: readonly string[]): string[] {
  return execArgv.some((flag) => flag.startsWith("--max-semi-space-size")) ? [...execArgv] : [LEAN_HEAP_FLAG, ...execArgv];
}
