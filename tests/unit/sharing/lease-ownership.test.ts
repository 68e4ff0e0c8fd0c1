// Another local user must not be able to steer this user's agents to a server of theirs: a lease
// or lease folder that is not this user's alone is not trusted.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { readLease } from "../../../src/sharing/lease-file.js";
import { prepareRuntimeFolder } from "../../../src/config/runtime-folder.js";
import { leasePaths } from "../../../src/sharing/lease-location.js";

// Giving a file away (chown) needs root, which CI is; a developer who is not root (README: setup
// uses sudo) gets paths that root owns instead.
const NOBODY = 65534;
const isRoot = process.getuid!() === 0;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-ownership-"));
  dirs.push(dir);
  return dir;
}

describe("lease ownership", () => {
  test("a lease file of another user is corrupt, whatever it says", () => {
    const path = join(tempDir(), "x.lease");
    writeFileSync(path, "{}", { mode: 0o600 });
    expect(readLease(path)).toMatchObject({ state: "corrupt", reason: "not an lspmcp lease" });
    if (!isRoot) {
      expect(readLease("/etc/passwd")).toEqual({ state: "corrupt", reason: "is owned by uid 0, not by this user" });
      return;
    }
    chownSync(path, NOBODY, NOBODY);
    expect(readLease(path)).toEqual({ state: "corrupt", reason: `is owned by uid ${NOBODY}, not by this user` });
  });

  test("a lease folder open to others is refused, and so is one that others may only read", () => {
    const dir = join(tempDir(), "leases");
    mkdirSync(dir, { mode: 0o700 });
    const paths = leasePaths("/x/bridge.toml", dir);
    expect(() => prepareRuntimeFolder(paths.dir)).not.toThrow();
    chmodSync(dir, 0o777);
    expect(() => prepareRuntimeFolder(paths.dir)).toThrow(/open to others \(mode 777\)/);
    chmodSync(dir, 0o720);
    expect(() => prepareRuntimeFolder(paths.dir)).toThrow(/open to others/);
    // A checkout's folder is 0755 as git makes it: not lspmcp's own.
    chmodSync(dir, 0o755);
    expect(() => prepareRuntimeFolder(paths.dir)).toThrow(/open to others \(mode 755\)/);
  });

  test("a lease folder of another user is refused", () => {
    if (!isRoot) {
      expect(() => prepareRuntimeFolder(leasePaths("/x/bridge.toml", "/etc").dir)).toThrow("belongs to uid 0");
      return;
    }
    const dir = join(tempDir(), "leases");
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, NOBODY, NOBODY);
    expect(() => prepareRuntimeFolder(leasePaths("/x/bridge.toml", dir).dir)).toThrow(`belongs to uid ${NOBODY}`);
  });
});
