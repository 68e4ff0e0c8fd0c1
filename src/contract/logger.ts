/**
 * Where lspmcp's own log lines go. The implementation writes to stderr (never stdout, which is
 * the MCP transport); this interface lets every layer log without knowing that.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything: for scripts that drive sessions and report on their own. */
export const SILENT_LOGGER: Logger = { debug() {}, info() {}, warn() {}, error() {} };
