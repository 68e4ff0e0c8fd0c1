import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { prepareRuntimeFolder } from "../../../src/config/runtime-folder.js";
import { leasePaths } from "../../../src/sharing/lease-location.js";
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

  test("without either (or with an empty XDG_RUNTIME_DIR): a per-user folder in the system temp folder, never beside the config", () => {
    const uid = process.getuid!();
    expect(leasePaths("/repo/sub/bridge.toml", null, {}).dir).toBe(`/tmp/lspmcp-${uid}`);
    expect(leasePaths("/repo/sub/bridge.toml", null, { XDG_RUNTIME_DIR: "" }).dir).toBe(`/tmp/lspmcp-${uid}`);
    expect(leasePaths("/repo/sub/bridge.toml", null, { TMPDIR: "/var/tmp/" }).dir).toBe(`/var/tmp/lspmcp-${uid}`);
  });

  test("the lease is named after the config; the lock is the folder itself and the log is one file, so neither multiplies", () => {
    const paths = leasePaths("/repo/bridge.toml", "/leases", {});
    expect(paths.lease).toMatch(/^\/leases\/bridge-[0-9a-f]{16}\.lease$/);
    expect(paths.lock).toBe("/leases");
    expect(paths.log).toBe("/leases/shared-servers.log");
  });

  test("one config, one lease: same path same files, another path another lease", () => {
    const a = leasePaths("/repo/bridge.toml", "/leases", {});
    expect(leasePaths("/repo/bridge.toml", "/leases", {})).toEqual(a);
    const b = leasePaths("/other/bridge.toml", "/leases", {});
    expect(b.lease).not.toBe(a.lease);
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

describe("prepareRuntimeFolder", () => {
  test("creates the folder (and its parents) with mode 0700 and leaves no probe file", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), join(dir, "a", "b", "leases"), {});
    prepareRuntimeFolder(paths.dir);
    expect(statSync(paths.dir).isDirectory()).toBe(true);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(paths.dir)).toEqual([]);
  });

  test("an existing folder is fine, and its files are kept", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), dir, {});
    writeFileSync(join(dir, "keep"), "x");
    prepareRuntimeFolder(paths.dir);
    prepareRuntimeFolder(paths.dir);
    expect(readdirSync(dir)).toEqual(["keep"]);
  });

  test("the default folder in the temp folder is created 0700, and nothing appears beside the config", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), null, { TMPDIR: join(dir, "tmp") });
    prepareRuntimeFolder(paths.dir);
    expect(statSync(join(dir, "tmp", `lspmcp-${process.getuid!()}`)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(["tmp"]);
  });

  test("a default folder that another user could write in is refused", () => {
    const paths = leasePaths(join(dir, "bridge.toml"), null, { TMPDIR: dir });
    mkdirSync(paths.dir, { mode: 0o777 });
    chmodSync(paths.dir, 0o777);
    expect(() => prepareRuntimeFolder(paths.dir)).toThrow(/open to others/);
  });

  test("a file where the folder should be throws", () => {
    const occupied = join(dir, "occupied");
    writeFileSync(occupied, "x");
    expect(() => prepareRuntimeFolder(leasePaths(join(dir, "bridge.toml"), occupied, {}).dir)).toThrow();
  });

  test("a folder below a file throws", () => {
    writeFileSync(join(dir, "file"), "x");
    expect(() => prepareRuntimeFolder(leasePaths(join(dir, "bridge.toml"), join(dir, "file", "leases"), {}).dir)).toThrow();
  });
});
