import { describe, expect, test } from "vitest";
import { allowedHostNames, isLoopbackHost, isWildcardHost, parseListenAddress } from "../../../src/http/listen-address.js";

describe("serve --http's address", () => {
  test("HOST:PORT, [IPv6]:PORT, or a bare PORT on loopback", () => {
    expect(parseListenAddress("8765")).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parseListenAddress("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
    expect(parseListenAddress("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(parseListenAddress("devbox.local:1")).toEqual({ host: "devbox.local", port: 1 });
    for (const bad of ["", "host:", ":80", "host:65536", "host:port", "::1:80", "a:b:80"]) expect(parseListenAddress(bad), bad).toBeUndefined();
  });

  test("loopback is localhost, 127.0.0.0/8 and ::1, nothing else", () => {
    for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "LOCALHOST"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "10.0.0.1", "evil.example.com", "localhost.evil.com", "128.0.0.1", "::"]) expect(isLoopbackHost(host), host).toBe(false);
  });

  test("the names Host and Origin may give: the address listened on unless it is every interface's, and the names given", () => {
    for (const host of ["0.0.0.0", "::", "[::]"]) expect(isWildcardHost(host), host).toBe(true);
    expect(isWildcardHost("10.0.0.1")).toBe(false);
    expect(allowedHostNames({ host: "10.0.0.1", port: 1 }, ["DevBox.Test"])).toEqual(["10.0.0.1", "devbox.test"]);
    expect(allowedHostNames({ host: "0.0.0.0", port: 1 }, ["devbox.test", "[fd00::1]"])).toEqual(["devbox.test", "fd00::1"]);
    expect(allowedHostNames({ host: "127.0.0.1", port: 1 }, [])).toEqual([]);
  });
});
