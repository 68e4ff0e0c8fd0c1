import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { leasePaths, prepareLeaseDir } from "../../../src/sharing/lease-location.js";
import { tempDir } from "./fixture.js";

let dir: string;
let cleanup: () => void;

beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe("leasePaths", () => {
  test("an explicit lease_dir wins over XDG_RUNTIME_DIR", () => {
    const paths = leasePaths("/repo/bridge.toml", "/leases", { XDG_RUNTIME_DIR: "/run/user/1000" });
    expect(paths.dir).toBe("/leases");
  });

  test("without lease_dir: $XDG_RUNTIME_DIR/lspmcp", () => {
    expect(leasePaths("/repo/bridge.toml", null, { XDG_RUNTIME_DIR: "/run/user/1000" }).dir).toBe("/run/user/1000/lspmcp");
  });

  test("without either (or with an empty XDG_RUNTIME_DIR): .lspmcp beside the config", () => {
    expect(leasePaths("/repo/sub/bridge.toml", null, {}).dir).toBe("/repo/sub/.lspmcp");
    expect(leasePaths("/repo/sub/bridge.toml", null, { XDG_RUNTIME_DIR: "" }).dir).toBe("/repo/sub/.lspmcp");
  });

  test("lease, lock and log share one stem in the folder", () => {
    const paths = leasePaths("/repo/bridge.toml", "/leases", {});
    const stem = /^\/leases\/(bridge-[0-9a-f]{16})\.lease$/.exec(paths.lease)?.[1];
    expect(stem).toBeDefined();
    expect(paths.lock).toBe(`/leases/${stem}.lock`);
    expect(paths.log).toBe(`/leases/${stem}.log`);
  });

  test("one config, one lease: same path same files, another path other files", () => {
    const a = leasePaths("/repo/bridge.toml", "/leases", {});
    expect(leasePaths("/repo/bridge.toml", "/leases", {})).toEqual(a);
    const b = leasePaths("/other/bridge.toml", "/leases", {});
    expect(b.lease).not.toBe(a.lease);
    expect(b.lock).not.toBe(a.lock);
  });

  test("defaults to process.env", () => {
    const saved = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = "/run/user/4242";
    try {
      expect(leasePaths("/repo/bridge.toml", null).dir).toBe("/run/user/4242/lspmcp");
    } finally {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = saved;
    }
  });
});

describe("prepareLeaseDir", () => {
  test("creates the folder (and its parents) with mode 0700 and leaves no probe file", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), join(dir, "a", "b", "leases"), {});
    prepareLeaseDir(paths);
    expect(statSync(paths.dir).isDirectory()).toBe(true);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(paths.dir)).toEqual([]);
  });

  test("an existing folder is fine, and its files are kept", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), dir, {});
    writeFileSync(join(dir, "keep"), "x");
    prepareLeaseDir(paths);
    prepareLeaseDir(paths);
    expect(readdirSync(dir)).toEqual(["keep"]);
  });

  test("the default .lspmcp beside the config is created", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), null, {});
    prepareLeaseDir(paths);
    expect(existsSync(join(dir, ".lspmcp"))).toBe(true);
  });

  test("a file where the folder should be throws", () => {
    const occupied = join(dir, "occupied");
    writeFileSync(occupied, "x");
    expect(() => prepareLeaseDir(leasePaths(join(dir, "bridge.toml"), occupied, {}))).toThrow();
  });

  test("a folder below a file throws", () => {
    writeFileSync(join(dir, "file"), "x");
    expect(() => prepareLeaseDir(leasePaths(join(dir, "bridge.toml"), join(dir, "file", "leases"), {}))).toThrow();
  });
});
