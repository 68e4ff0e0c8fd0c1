// lspmcp's own files are never written or read through a link planted under their names: the
// install receipt, the trust record and the workspace-cache root file (each written aside and
// renamed over), and the helpers they share. Each planted link points at a victim file whose
// content is checked afterwards.
import { chmodSync, closeSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { openOwnForAppend, readOwnFile, replaceFile } from "../../../src/config/own-files.js";
import { recordTrust } from "../../../src/config/trust-store.js";
import { RECEIPT_FILE, writeReceipt } from "../../../src/install/install-receipt.js";
import { tempDir } from "../../helpers/temp.js";

const VICTIM = "the user's own file\n";

/** A folder holding `name` as a symlink to a victim file elsewhere; `untouched` checks the victim. */
function planted(name: string): { dir: string; path: string; untouched: () => boolean } {
  const dir = tempDir("lspmcp-own-");
  const victim = join(tempDir("lspmcp-victim-"), "victim");
  writeFileSync(victim, VICTIM);
  symlinkSync(victim, join(dir, name));
  return { dir, path: join(dir, name), untouched: () => readFileSync(victim, "utf8") === VICTIM };
}

describe("lspmcp's own files", () => {
  test("replaceFile replaces a symlink at the name with a file of its own, and leaves no temp file", () => {
    const { dir, path, untouched } = planted("file");
    replaceFile(path, "new\n");
    expect(untouched()).toBe(true);
    expect(lstatSync(path).isFile()).toBe(true);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["file"]);
  });

  test("openOwnForAppend refuses a symlink, a hard link and a folder; it creates a missing file 0600", () => {
    const link = planted("log");
    expect(() => openOwnForAppend(link.path)).toThrow(/is a symlink/);
    expect(link.untouched()).toBe(true);
    const original = join(link.dir, "original");
    writeFileSync(original, VICTIM);
    const hard = join(link.dir, "hard");
    linkSync(original, hard);
    expect(() => openOwnForAppend(hard)).toThrow(/has 2 names/);
    const folder = join(link.dir, "folder");
    mkdirSync(folder);
    expect(() => openOwnForAppend(folder)).toThrow();
    const fresh = join(link.dir, "fresh.log");
    closeSync(openOwnForAppend(fresh));
    expect(lstatSync(fresh).mode & 0o777).toBe(0o600);
  });

  test("readOwnFile refuses a symlink and, with a mode, a file open to others", () => {
    const link = planted("token");
    expect(() => readOwnFile(link.path)).toThrow(/is a symlink/);
    const open = join(link.dir, "open");
    writeFileSync(open, "x");
    chmodSync(open, 0o644);
    expect(readOwnFile(open)).toBe("x");
    expect(() => readOwnFile(open, 0o600)).toThrow(/open to others \(mode 644\)/);
  });

  test("an install receipt, a trust record: a symlink planted under their names is replaced, never written through", async () => {
    const receipt = planted(RECEIPT_FILE);
    await writeReceipt(receipt.dir, { server: "s", version: "1", reported: "s 1", installed_at: "now" });
    expect(receipt.untouched()).toBe(true);
    expect(lstatSync(receipt.path).isFile()).toBe(true);

    const state = tempDir("lspmcp-state-");
    const first = recordTrust("/x/bridge.toml", "d".repeat(64), state);
    const victim = join(tempDir("lspmcp-victim-"), "victim");
    writeFileSync(victim, VICTIM);
    rmSync(first);
    symlinkSync(victim, first);
    recordTrust("/x/bridge.toml", "e".repeat(64), state);
    expect(readFileSync(victim, "utf8")).toBe(VICTIM);
    expect(lstatSync(first).isFile()).toBe(true);
  });
});
