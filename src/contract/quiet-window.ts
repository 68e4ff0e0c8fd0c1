/**
 * The standard settle rule's quiet window after a push answer, in milliseconds, where a server's
 * entry sets none (`settle_quiet_ms`): above the longest silence measured between a file's first
 * publish and its last on a loaded machine (typescript-language-server on ajv's 106 files, 2.1 s
 * between a file's syntax and its semantic publish), with a margin. docs/adapters.md gives the
 * measurements.
 */
export const DEFAULT_SETTLE_QUIET_MS = 3000;
