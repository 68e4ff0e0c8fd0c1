/**
 * The closed set of error codes of CONTRACT §6, each with whether it is the caller's to fix (a bad
 * config, argument, path or file) rather than a failure of a server or of the bridge. `lspmcp
 * check` exits 2 for the caller's faults and 3 for the others. Codes are stable: programs match
 * on them.
 */
const CALLERS_FAULT = {
  ConfigInvalid: true,
  ConfigUntrusted: true,
  InvalidArguments: true,
  UnknownWorkspace: true,
  UnknownServer: true,
  AmbiguousServer: true,
  NoServerForFile: true,
  PathOutsideWorkspace: true,
  FileNotFound: true,
  FileUnreadable: true,
  SessionLimit: false,
  SessionDead: false,
  ServerStartFailed: false,
  ServerVersionMismatch: false,
  ServerCrashed: false,
  NotSupported: false,
  Timeout: false,
  ResultTooLarge: false,
  Internal: false,
} as const satisfies Record<string, boolean>;

export type ErrorCode = keyof typeof CALLERS_FAULT;

/** Every code, in the order of CONTRACT §6. */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(CALLERS_FAULT) as ErrorCode[];

/** True for the codes the caller fixes (config, arguments, path, file), false for every other. */
export function isCallersFault(code: ErrorCode): boolean {
  return CALLERS_FAULT[code];
}

type ErrorDetails = Record<string, unknown>;

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
  return new BridgeError("Internal", `internal error: ${errorText(error)}`, {}, { cause: error });
}

/** What a caught value says: an Error's message, or the value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
