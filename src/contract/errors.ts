/**
 * The closed set of error codes of CONTRACT §6. Codes are stable: programs match on them.
 */
export const ERROR_CODES = [
  "ConfigInvalid",
  "InvalidArguments",
  "UnknownWorkspace",
  "UnknownServer",
  "AmbiguousServer",
  "NoServerForFile",
  "PathOutsideWorkspace",
  "FileNotFound",
  "FileUnreadable",
  "SessionLimit",
  "SessionDead",
  "ServerStartFailed",
  "ServerVersionMismatch",
  "ServerCrashed",
  "NotSupported",
  "Timeout",
  "ResultTooLarge",
  "Internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorDetails = Record<string, unknown>;

/**
 * The one error type of lspmcp. `message` is for people, `details` for programs, `cause` keeps
 * the original failure for logs (it is never shown to MCP clients).
 */
export class BridgeError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BridgeError";
    this.code = code;
    this.details = details;
  }

  /** The wire shape of CONTRACT §6: `{"error":{"code","message","details"}}`. */
  toPayload(): { error: { code: ErrorCode; message: string; details: ErrorDetails } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** Anything thrown that is not a BridgeError becomes `Internal`, with the original kept as cause. */
export function asBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BridgeError("Internal", `internal error: ${message}`, {}, { cause: error });
}
