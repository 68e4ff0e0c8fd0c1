/**
 * V8 heap flags for lspmcp's own Node processes (figures in docs/contributors/reliability.md):
 * - 2 MiB semi-spaces instead of Node 20's 16 MiB. A bridge allocates a little per message and
 *   keeps almost none of it, so the scavenger still finds the young generation nearly empty; the
 *   default let it grow to 32 MiB of resident pages (~14 MiB less RSS per process).
 * - A first old-generation limit of 16 MiB, and --optimize-for-size. With small semi-spaces, what
 *   lives across a few scavenges (a call in flight, a document's diagnostics until its next
 *   version) is promoted. V8's default first limit, derived from the machine's memory, let that
 *   garbage pile up for thousands of calls before the first full collection (a standalone bridge
 *   climbs from 89 to 111 MiB over 3,000 calls and falls back at its first mark-compact; heap
 *   snapshots show nothing surviving a full GC), and its later limits
 *   grow in steps of at least 8 MiB, a sawtooth of 10-15 MiB. Memory-optimised sizing grows the
 *   limit in 2 MiB steps: RSS holds level, at about 8% more CPU in the bridge process itself.
 * V8 reads them only at start, so they are command-line flags: the `lspmcp` entry's `#!` line
 * carries them, and every lspmcp process the bridge launches (the shared server, supervisors)
 * gets them here.
 */
export const LEAN_HEAP_FLAGS: readonly string[] = ["--max-semi-space-size=2", "--initial-old-space-size=16", "--optimize-for-size"];

/** `execArgv` with each lean heap flag whose setting was not chosen already. */
export function leanNodeArgs(execArgv: readonly string[]): string[] {
  const name = (flag: string): string => flag.replace(/^--(no-)?/, "").split("=")[0]!;
  const chosen = (flag: string): boolean => execArgv.some((given) => name(given) === name(flag));
  return [...LEAN_HEAP_FLAGS.filter((flag) => !chosen(flag)), ...execArgv];
}
