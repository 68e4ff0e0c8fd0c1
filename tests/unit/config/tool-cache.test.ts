import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { expandToolCache, toolCacheDir } from "../../../src/config/tool-cache.js";

describe("lspmcp's tool cache", () => {
  test("is $XDG_CACHE_HOME/lspmcp, or ~/.cache/lspmcp when it is unset or relative (as setup.sh computes it)", () => {
    expect(toolCacheDir({ XDG_CACHE_HOME: "/var/cache/me" })).toBe("/var/cache/me/lspmcp");
    expect(toolCacheDir({})).toBe(join(homedir(), ".cache", "lspmcp"));
    expect(toolCacheDir({ XDG_CACHE_HOME: "relative/cache" })).toBe(join(homedir(), ".cache", "lspmcp"));
  });

  test("a leading {cache}/ is expanded, and nothing else", () => {
    const env = { XDG_CACHE_HOME: "/c" };
    expect(expandToolCache("{cache}/go/bin/gopls", env)).toBe("/c/lspmcp/go/bin/gopls");
    expect(expandToolCache("gopls", env)).toBe("gopls");
    expect(expandToolCache("bin/{cache}/x", env)).toBe("bin/{cache}/x");
    expect(expandToolCache("{cache}", env)).toBe("{cache}");
  });
});
