import { BridgeError, errorText } from "../contract/errors.js";
import { sessionDeadError, type SessionExit } from "./session-exit.js";

/** What a session knew when its start failed, before its tree was reaped. */
export interface FailedStart {
  /** The session's key, `workspace/server`. */
  readonly key: string;
  /** The server's exit seen during the start, if any. */
  readonly lastExit: SessionExit | null;
  readonly lastError: BridgeError | null;
  readonly stderrTail: string[];
  readonly maxRssMb: number | null;
}

/**
 * Why a start failed, as its callers and `last_error` say it: a tree that passed its memory cap is
 * `SessionDead` with the memory seen; a server that exited during the start, or whose connection
 * failed, is `ServerStartFailed` with its last words on stderr; a start past its deadline stays
 * `Timeout`; any other `BridgeError` (a version mismatch) passes as it is.
 */
export function startFailure(error: unknown, start: FailedStart): BridgeError {
  const { key, lastExit, stderrTail } = start;
  if (lastExit?.reason === "memory") return sessionDeadError(key, lastExit, start.lastError, stderrTail, start.maxRssMb);
  if (lastExit) {
    const { code, signal } = lastExit;
    return new BridgeError("ServerStartFailed", `${key} exited during start (code ${code}, signal ${signal})`, {
      session: key,
      exit_code: code,
      exit_signal: signal,
      stderr_tail: stderrTail,
    });
  }
  if (error instanceof BridgeError) {
    if (error.code === "ServerStartFailed")
      return new BridgeError(error.code, error.message, { ...error.details, session: key, stderr_tail: stderrTail }, { cause: error.cause });
    if (error.code === "ServerCrashed" || error.code === "Timeout") {
      return new BridgeError(error.code === "Timeout" ? "Timeout" : "ServerStartFailed", `${key}: ${error.message}`, {
        ...error.details,
        session: key,
        stderr_tail: stderrTail,
      });
    }
    return error;
  }
  // The connection can fail (a closed pipe) before the server's exit is seen: its last words
  // on stderr still say why it did not start.
  return new BridgeError("ServerStartFailed", `${key} failed to start: ${errorText(error)}`, { session: key, stderr_tail: stderrTail }, { cause: error });
}

/**
 * The judged failure with the stderr tail as it is once the tree is gone (the server's last words
 * can arrive after its exit was seen); a failure that carries no tail is left as it is.
 */
export function withFinalStderr(judged: BridgeError, stderrTail: string[]): BridgeError {
  if (!("stderr_tail" in judged.details)) return judged;
  return new BridgeError(judged.code, judged.message, { ...judged.details, stderr_tail: stderrTail }, { cause: judged.cause });
}
