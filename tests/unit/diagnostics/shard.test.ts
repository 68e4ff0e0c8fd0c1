import { describe, expect, test } from "vitest";
import { inShard } from "../../../src/diagnostics/findings/shard.js";
import { parseShard } from "../../../src/diagnostics/findings/shard-spec.js";
import type { ResolvedTarget } from "../../../src/targets/resolve-target.js";

const target = (path: string, workspace = "app") => ({ workspace: { name: workspace }, server: { name: "ts" }, file: { path } }) as unknown as ResolvedTarget;

describe("shards", () => {
  test("K/N parses; anything else is InvalidArguments", () => {
    expect(parseShard("2/5")).toEqual({ index: 2, count: 5 });
    for (const bad of ["0/1", "3/2", "1/0", "-1/2", "1/2/3", "a/b", "", "1"])
      expect(() => parseShard(bad)).toThrow(expect.objectContaining({ code: "InvalidArguments" }));
  });

  test("every file is in exactly one of N shards, and the shares are roughly even", () => {
    const files = Array.from({ length: 3000 }, (_, i) => target(`src/dir${i % 17}/file${i}.ts`));
    const sizes = [1, 2, 3, 4].map((k) => files.filter((file) => inShard(file, { index: k, count: 4 })).length);
    const notOnce = files.filter((file) => [1, 2, 3, 4].filter((k) => inShard(file, { index: k, count: 4 })).length !== 1);
    expect(notOnce).toEqual([]);
    expect(sizes.reduce((a, b) => a + b)).toBe(3000);
    for (const size of sizes) expect(size).toBeGreaterThan(600);
  });

  test("a file's shard depends on its workspace and path only", () => {
    const shardOf = (t: ResolvedTarget) => [1, 2, 3].find((k) => inShard(t, { index: k, count: 3 }));
    expect(shardOf(target("a/b.ts"))).toBe(shardOf(target("a/b.ts")));
    const moved = Array.from({ length: 50 }, (_, i) => shardOf(target(`f${i}.ts`)) !== shardOf(target(`f${i}.ts`, "other")));
    expect(moved.some(Boolean)).toBe(true);
  });
});
