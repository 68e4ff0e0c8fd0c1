import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { versionMatches } from "../../../src/config/version-match.js";
import { assertPinned } from "../../../src/sessions/version-pin.js";
import type { ResolvedServer } from "../../../src/config/types.js";

describe("versionMatches", () => {
  test.each([
    ["5.3.0", "5.3.0", true],
    ["5.3.0", " 5.3.0\n", true],
    ["1.1.414", "pyright 1.1.414", true],
    ["14.0.6", "Debian clangd version 14.0.6 linux+grpc x86_64-pc-linux-gnu", true],
    ["14.0.6", "clangd version 14.0.61", false],
    ["14.0.6", "clangd version 114.0.6", false],
    ["14.0", "clangd version 14.0.6", false],
    ["5.3.0", "5.3.0-beta", true],
    ["1.0.0", "v1.0.0", true],
    ["1.2.3", "1x2y3", false],
  ])("pin %s vs reported %j → %s", (pin, reported, expected) => {
    expect(versionMatches(pin, reported)).toBe(expected);
  });
});

describe("assertPinned", () => {
  const server = { name: "clangd", version: "14.0.6" } as ResolvedServer;

  test("a match passes", () => {
    expect(() => assertPinned(server.name, server.version, "Debian clangd version 14.0.6")).not.toThrow();
  });

  test("a mismatch gives both versions", () => {
    try {
      assertPinned(server.name, server.version, "15.0.1");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BridgeError);
      expect((error as BridgeError).code).toBe("ServerVersionMismatch");
      expect((error as BridgeError).details).toEqual({ server: "clangd", pinned: "14.0.6", reported: "15.0.1" });
    }
  });

  test("no reported version is a mismatch with reported: null", () => {
    expect(() => assertPinned(server.name, server.version, null)).toThrow(
      expect.objectContaining({ code: "ServerVersionMismatch", details: expect.objectContaining({ reported: null }) }),
    );
  });
});
