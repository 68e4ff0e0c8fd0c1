import type { MessageConnection } from "vscode-jsonrpc/node";
import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { DocumentSync } from "../../../src/lsp/document-sync.js";

// A server that died between two calls: the pipe is gone, so writing to it fails with EPIPE.
const deadPipe = {
  sendNotification: () => Promise.reject(Object.assign(new Error("write EPIPE"), { code: "EPIPE" })),
} as unknown as MessageConnection;

describe("DocumentSync against a server that is gone", () => {
  test("a failed didOpen is the server's crash (ServerCrashed), never Internal", async () => {
    const error = await new DocumentSync(deadPipe, { currentSequence: () => 0, onClosed: () => {}, maxOpen: 10 })
      .sync("file:///a.ts", "typescript", "x")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: "ServerCrashed", details: { method: "textDocument/didOpen" } });
    expect((error as BridgeError).message).toContain("EPIPE");
  });
});
