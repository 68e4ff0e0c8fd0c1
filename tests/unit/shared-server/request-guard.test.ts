import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { describe, expect, test } from "vitest";
import { guardRequest } from "../../../src/shared-server/request-guard.js";
import { newToken } from "../sharing/fixture.js";

const PORT = 41234;
const TOKEN = newToken();

function request(headers: IncomingHttpHeaders): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

const good = { host: `127.0.0.1:${PORT}`, authorization: `Bearer ${TOKEN}` };

describe("guardRequest", () => {
  test("loopback Host with the port, no Origin, right bearer: let through", () => {
    expect(guardRequest(request(good), PORT, TOKEN)).toBeUndefined();
    expect(guardRequest(request({ ...good, host: `localhost:${PORT}` }), PORT, TOKEN)).toBeUndefined();
  });

  test.each([
    ["missing", undefined],
    ["empty", ""],
    ["another port", `127.0.0.1:${PORT + 1}`],
    ["no port", "127.0.0.1"],
    ["localhost without port", "localhost"],
    ["a rebound name", `evil.example:${PORT}`],
    ["another loopback address", `127.0.0.2:${PORT}`],
    ["IPv6 loopback", `[::1]:${PORT}`],
    ["0.0.0.0", `0.0.0.0:${PORT}`],
    ["a suffix", `127.0.0.1:${PORT}.evil.example`],
    ["a prefix", `x127.0.0.1:${PORT}`],
  ])("Host %s: 403", (_name, host) => {
    const headers: IncomingHttpHeaders = { ...good };
    if (host === undefined) delete headers.host;
    else headers.host = host;
    expect(guardRequest(request(headers), PORT, TOKEN)).toEqual({ status: 403, message: "Host not allowed" });
  });

  test.each([`http://127.0.0.1:${PORT}`, "http://evil.example", "null", ""])("any Origin (%j): 403", (origin) => {
    expect(guardRequest(request({ ...good, origin }), PORT, TOKEN)).toEqual({ status: 403, message: "Origin not allowed" });
  });

  test("a bad Host is refused before the bearer is looked at", () => {
    expect(guardRequest(request({ host: "evil.example" }), PORT, TOKEN)?.status).toBe(403);
    expect(guardRequest(request({ host: "evil.example", origin: "http://evil.example" }), PORT, TOKEN)?.message).toBe("Host not allowed");
  });

  test("an Origin is refused even with the right bearer", () => {
    expect(guardRequest(request({ ...good, origin: "http://evil.example" }), PORT, TOKEN)?.status).toBe(403);
  });

  test.each([
    ["missing", undefined],
    ["empty", ""],
    ["just the scheme", "Bearer "],
    ["the token without scheme", TOKEN],
    ["another token", `Bearer ${newToken()}`],
    ["a token one character short", `Bearer ${TOKEN.slice(0, -1)}`],
    ["a token one character long", `Bearer ${TOKEN}0`],
    ["another scheme", `Basic ${TOKEN}`],
    ["a trailing space", `Bearer ${TOKEN} `],
    ["two spaces", `Bearer  ${TOKEN}`],
    ["multibyte of the same length", `Bearer ${"é".repeat(TOKEN.length / 2)}`],
  ])("bearer %s: 401", (_name, authorization) => {
    const headers: IncomingHttpHeaders = { ...good };
    if (authorization === undefined) delete headers.authorization;
    else headers.authorization = authorization;
    expect(guardRequest(request(headers), PORT, TOKEN)).toEqual({ status: 401, message: "Unauthorized" });
  });

  test("the port and token are the ones passed, not fixed", () => {
    const other = newToken();
    expect(guardRequest(request({ host: "127.0.0.1:8080", authorization: `Bearer ${other}` }), 8080, other)).toBeUndefined();
    expect(guardRequest(request({ host: "127.0.0.1:8080", authorization: `Bearer ${other}` }), 8080, TOKEN)?.status).toBe(401);
  });
});
