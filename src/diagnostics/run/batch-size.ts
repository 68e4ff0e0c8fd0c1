/**
 * Files of one session in flight at once (documents open at once in `check`) when the caller
 * does not say: enough to keep a server busy, few enough to bound its memory. A module of its own
 * so that the command line's parsing reads it without loading the runner.
 */
export const DEFAULT_BATCH_SIZE = 32;
