/**
 * Where lspmcp's own log lines go. The implementation writes to stderr (never stdout, which is
 * the MCP transport); this interface lets every layer log without knowing that.
 */
export interface Logger {
  /**
   * Whether a line at `level` would be written anywhere; absent: it would. A producer of many
   * lines (a language server's own log) is asked for fewer when nobody reads them.
   */
  enabled?(level: LogLevel): boolean;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

/** A logger that drops everything: for scripts that drive sessions and report on their own. */
export const SILENT_LOGGER: Logger = { enabled: () => false, debug() {}, info() {}, warn() {}, error() {} };
