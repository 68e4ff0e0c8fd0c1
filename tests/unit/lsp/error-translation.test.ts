import { describe, expect, test } from "vitest";
import { ResponseError } from "vscode-jsonrpc/node";
import { BridgeError } from "../../../src/contract/errors.js";
import { cancelledByServer, SERVER_CANCELLED, translateRequestError } from "../../../src/lsp/error-translation.js";
import { OVERSIZED_RESPONSE_CODE } from "../../../src/lsp/frame-guard.js";

describe("a failed request as the caller sees it", () => {
  test("a method the server does not implement is NotSupported", () => {
    const error = translateRequestError("textDocument/hover", new ResponseError(-32601, "Unhandled method textDocument/hover"));
    expect([error.code, error.message, error.details]).toEqual([
      "NotSupported",
      "the server does not implement textDocument/hover",
      { method: "textDocument/hover" },
    ]);
  });

  test("an answer the frame guard would not read is ServerCrashed with its size, the connection going on", () => {
    const error = translateRequestError("textDocument/documentSymbol", new ResponseError(OVERSIZED_RESPONSE_CODE, "too long", { message_bytes: 70_000_000 }));
    expect(error.code).toBe("ServerCrashed");
    expect(error.message).toBe("the server's answer to textDocument/documentSymbol was not read: too long");
    expect(error.details).toEqual({ method: "textDocument/documentSymbol", reason: "too long", message_bytes: 70_000_000 });
  });

  test("a server's own error is ServerCrashed with its code and its message without stack frames", () => {
    const error = translateRequestError("textDocument/hover", new ResponseError(-32603, "No Project.\n    at Object.ThrowNoProject (/x/typescript.js:1:2)"));
    expect(error.code).toBe("ServerCrashed");
    expect(error.message).toBe("the server answered textDocument/hover with error -32603: No Project.");
    expect(error.details).toEqual({ method: "textDocument/hover", lsp_error_code: -32603, lsp_message: "No Project." });
  });

  test("ServerCancelled says whether the client is to ask again", () => {
    const again = translateRequestError("textDocument/diagnostic", new ResponseError(SERVER_CANCELLED, "cancelled", { retriggerRequest: true }));
    const notAgain = translateRequestError("textDocument/diagnostic", new ResponseError(SERVER_CANCELLED, "cancelled"));
    expect([again.details.retrigger_request, notAgain.details.retrigger_request]).toEqual([true, false]);
  });

  test("a BridgeError passes as it is; anything else thrown is ServerCrashed with the cause kept", () => {
    const own = new BridgeError("Timeout", "textDocument/hover took too long", {});
    expect(translateRequestError("textDocument/hover", own)).toBe(own);
    const pipe = new Error("write EPIPE");
    const error = translateRequestError("textDocument/hover", pipe);
    expect([error.code, error.message, error.details, error.cause]).toEqual([
      "ServerCrashed",
      "textDocument/hover failed: write EPIPE",
      { method: "textDocument/hover" },
      pipe,
    ]);
  });

  test("only a RequestCancelled the server answered is its own cancel", () => {
    expect(cancelledByServer(translateRequestError("textDocument/hover", new ResponseError(-32800, "cancelled")))).toBe(true);
    expect(cancelledByServer(translateRequestError("textDocument/hover", new ResponseError(SERVER_CANCELLED, "cancelled")))).toBe(false);
    expect(cancelledByServer(new BridgeError("Timeout", "textDocument/hover was cancelled by the client", { cancelled: true }))).toBe(false);
  });
});
