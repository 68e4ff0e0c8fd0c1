import { ResponseError } from "vscode-jsonrpc/node";
import { LSPErrorCodes } from "vscode-languageserver-protocol";
import { BridgeError, errorText } from "../contract/errors.js";
import { OVERSIZED_RESPONSE_CODE } from "./frame-guard.js";

/** LSP's ServerCancelled: the server cancelled the request itself. */
export const SERVER_CANCELLED = -32802;

/** JSON-RPC's MethodNotFound. */
const METHOD_NOT_FOUND = -32601;

/** A server's error message without its stack frames, on one line, at most 500 characters. */
export function withoutStack(text: string): string {
  const said = text
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^at\s/.test(line))
    .join(" ");
  return said.length > 500 ? `${said.slice(0, 500)}…` : said;
}

/**
 * A RequestCancelled the server chose: the bridge's own cancels (deadline, abort) end the call as
 * `Timeout` before any answer is read.
 */
export function cancelledByServer(error: unknown): boolean {
  return error instanceof BridgeError && error.details.lsp_error_code === LSPErrorCodes.RequestCancelled;
}

/**
 * What a failed request of `method` is to the caller: a `BridgeError` passes as it is; the server
 * saying the method is not there is `NotSupported`; any other server error, or a failure of the
 * connection, is `ServerCrashed`.
 */
export function translateRequestError(method: string, error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  if (error instanceof ResponseError) {
    if (error.code === METHOD_NOT_FOUND) {
      return new BridgeError("NotSupported", `the server does not implement ${method}`, { method });
    }
    if (error.code === OVERSIZED_RESPONSE_CODE) {
      // Put in place of the server's answer by FrameGuard; the connection goes on.
      return new BridgeError("ServerCrashed", `the server's answer to ${method} was not read: ${error.message}`, {
        method,
        reason: error.message,
        message_bytes: (error.data as { message_bytes?: number } | undefined)?.message_bytes ?? null,
      });
    }
    // Servers put their own stack traces in the message (tsserver does); they are for the
    // server's log, not for the caller.
    const said = withoutStack(error.message);
    return new BridgeError("ServerCrashed", `the server answered ${method} with error ${error.code}: ${said}`, {
      method,
      lsp_error_code: error.code,
      lsp_message: said,
      // ServerCancelled of a diagnostic pull says whether the client is to ask again (LSP 3.17,
      // DiagnosticServerCancellationData): the settle wait reads it.
      ...(error.code === SERVER_CANCELLED ? { retrigger_request: (error.data as { retriggerRequest?: unknown } | undefined)?.retriggerRequest === true } : {}),
    });
  }
  const message = errorText(error);
  return new BridgeError("ServerCrashed", `${method} failed: ${message}`, { method }, { cause: error });
}
