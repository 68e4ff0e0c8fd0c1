import { describe, expect, test } from "vitest";
import { compileExclude } from "../../../src/config/exclude-matcher.js";

describe("compileExclude", () => {
  test("a pattern without a slash matches a name at any depth, and everything below it", () => {
    const excluded = compileExclude(["node_modules", "*.min.js"]);
    expect(excluded("node_modules")).toBe(true);
    expect(excluded("pkg/node_modules/a/b.ts")).toBe(true);
    expect(excluded("web/app.min.js")).toBe(true);
    expect(excluded("web/app.js")).toBe(false);
    expect(excluded("node_modules_old/a.ts")).toBe(false);
  });

  test("a pattern with a slash is anchored at the root", () => {
    const excluded = compileExclude(["build/**", "src/gen/", "docs/*.md"]);
    expect(excluded("build")).toBe(true);
    expect(excluded("build/x/y.c")).toBe(true);
    expect(excluded("lib/build/y.c")).toBe(false);
    expect(excluded("src/gen/a.ts")).toBe(true);
    expect(excluded("src/general.ts")).toBe(false);
    expect(excluded("docs/a.md")).toBe(true);
    expect(excluded("docs/sub/a.md")).toBe(false);
  });

  test("** spans any number of segments in the middle, ? one character", () => {
    const excluded = compileExclude(["src/**/fixtures", "tmp?.txt"]);
    expect(excluded("src/fixtures/a.ts")).toBe(true);
    expect(excluded("src/a/b/fixtures/c.ts")).toBe(true);
    expect(excluded("test/fixtures/c.ts")).toBe(false);
    expect(excluded("tmp1.txt")).toBe(true);
    expect(excluded("tmp12.txt")).toBe(false);
  });

  test("regex characters in patterns are literal, and no patterns exclude nothing", () => {
    expect(compileExclude(["a+b.(c)"])("x/a+b.(c)")).toBe(true);
    expect(compileExclude(["a+b.(c)"])("x/aab.(c)")).toBe(false);
    expect(compileExclude([])("anything")).toBe(false);
  });
});
