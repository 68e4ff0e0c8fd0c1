import { describe, expect, test } from "vitest";
import { LEAN_HEAP_FLAGS, leanNodeArgs } from "../../../src/contract/node-flags.js";

describe("leanNodeArgs", () => {
  test("adds every lean heap flag to a plain node", () => {
    expect(leanNodeArgs([])).toEqual([...LEAN_HEAP_FLAGS]);
  });

  test("keeps a setting chosen already (a value, or a --no- form) and passes other flags on", () => {
    const args = leanNodeArgs(["--max-semi-space-size=8", "--no-optimize-for-size", "--cpu-prof"]);
    expect(args).toEqual(["--initial-old-space-size=16", "--max-semi-space-size=8", "--no-optimize-for-size", "--cpu-prof"]);
  });

  test("a process started with the lean flags passes them on unchanged, once", () => {
    expect(leanNodeArgs(LEAN_HEAP_FLAGS)).toEqual([...LEAN_HEAP_FLAGS]);
  });
});
