import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readLease, removeLease, writeLease } from "../../../src/sharing/lease-file.js";
import type { Lease } from "../../../src/sharing/lease-schema.js";
import { leaseFor, tempDir } from "./fixture.js";

let dir: string;
let cleanup: () => void;
let path: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  path = join(dir, "bridge.lease");
});
afterEach(() => cleanup());

function expectCorrupt(text: string, reason: string | RegExp): void {
  writeFileSync(path, text);
  const read = readLease(path);
  expect(read.state).toBe("corrupt");
  if (read.state !== "corrupt") return;
  expect(read.reason).toMatch(reason);
}

describe("readLease / writeLease", () => {
  test("a written lease reads back equal", () => {
    const lease = leaseFor(4242);
    writeLease(path, lease);
    expect(readLease(path)).toEqual({ state: "present", lease });
  });

  test("a second write replaces the first whole", () => {
    writeLease(path, leaseFor(1111));
    const second = leaseFor(2222);
    writeLease(path, second);
    expect(readLease(path)).toEqual({ state: "present", lease: second });
  });

  test("no file is missing", () => {
    expect(readLease(path)).toEqual({ state: "missing" });
  });

  test("a missing folder is missing too", () => {
    expect(readLease(join(dir, "absent", "bridge.lease"))).toEqual({ state: "missing" });
  });

  test("an empty file is corrupt: empty", () => expectCorrupt("", /^empty$/));
  test("a whitespace-only file is corrupt: empty", () => expectCorrupt(" \n\t\n", /^empty$/));
  test("text that is not JSON is corrupt: not JSON", () => expectCorrupt("hello, lease", /^not JSON$/));

  test("a truncated lease (torn write) is corrupt: not JSON", () => {
    const whole = JSON.stringify(leaseFor(4242), null, 2);
    expectCorrupt(whole.slice(0, Math.floor(whole.length / 2)), /^not JSON$/);
  });

  test("JSON of another shape is corrupt: not an lspmcp lease", () => {
    expectCorrupt(JSON.stringify({ hello: "world" }), /not an lspmcp lease/);
    expectCorrupt("[]", /not an lspmcp lease/);
    expectCorrupt("null", /not an lspmcp lease/);
    expectCorrupt("42", /not an lspmcp lease/);
  });

  test("a lease with a wrong kind, an extra key, a missing key or a bad field is foreign", () => {
    const lease = leaseFor(4242);
    expectCorrupt(JSON.stringify({ ...lease, kind: "other-lease" }), /not an lspmcp lease/);
    expectCorrupt(JSON.stringify({ ...lease, extra: 1 }), /not an lspmcp lease/);
    const { token: _token, ...noToken } = lease;
    expectCorrupt(JSON.stringify(noToken), /not an lspmcp lease/);
    expectCorrupt(JSON.stringify({ ...lease, token: "NOT-HEX" }), /not an lspmcp lease/);
    expectCorrupt(JSON.stringify({ ...lease, pid: 0 }), /not an lspmcp lease/);
    expectCorrupt(JSON.stringify({ ...lease, pid: 1.5 }), /not an lspmcp lease/);
    expectCorrupt(JSON.stringify({ ...lease, url: "http://example.com:80/mcp" }), /not an lspmcp lease/);
    expectCorrupt(JSON.stringify({ ...lease, config_digest: "abc" }), /not an lspmcp lease/);
  });

  test("a folder where the lease should be is corrupt: not a regular file", () => {
    mkdirSync(path);
    expect(readLease(path)).toEqual({ state: "corrupt", reason: "is not a regular file" });
  });

  test("the written file has mode 0600, even over an older 0644 file", () => {
    writeFileSync(path, "old", { mode: 0o644 });
    chmodSync(path, 0o644);
    writeLease(path, leaseFor(4242));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("the written file is pretty JSON ending in a newline", () => {
    const lease = leaseFor(4242);
    writeLease(path, lease);
    const text = readFileSync(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(lease);
  });

  test("no temp file is left behind after writes", () => {
    for (let i = 0; i < 5; i++) writeLease(path, leaseFor(4000 + i));
    expect(readdirSync(dir)).toEqual(["bridge.lease"]);
  });

  test("a write into a missing folder throws", () => {
    expect(() => writeLease(join(dir, "absent", "bridge.lease"), leaseFor(4242))).toThrow();
  });

  test("a write that fails once its temp file exists removes it", () => {
    // A value JSON cannot hold fails the write after the temp file is made, as a full disk would.
    const lease = { ...leaseFor(4242), pid: 10n } as unknown as Lease;
    expect(() => writeLease(path, lease)).toThrow(/BigInt/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a rename that fails removes its temp file", () => {
    // The target is a non-empty folder: the temp file is written, the rename over it fails.
    mkdirSync(path);
    writeFileSync(join(path, "occupant"), "x");
    expect(() => writeLease(path, leaseFor(4242))).toThrow();
    expect(readdirSync(dir)).toEqual(["bridge.lease"]);
  });
});

describe("removeLease", () => {
  test("removes the file", () => {
    writeLease(path, leaseFor(4242));
    removeLease(path);
    expect(existsSync(path)).toBe(false);
    expect(readLease(path)).toEqual({ state: "missing" });
  });

  test("a missing file is fine", () => {
    expect(() => removeLease(path)).not.toThrow();
  });

  test("other errors are thrown", () => {
    mkdirSync(path);
    expect(() => removeLease(path)).toThrow();
  });
});
