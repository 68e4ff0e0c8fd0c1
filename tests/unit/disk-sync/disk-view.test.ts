import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DiskView, RACY_MS } from "../../../src/disk-sync/disk-view.js";
import { tempDir } from "../../helpers/temp.js";

const dir = tempDir("lspmcp-disk-view-");
const file = (name: string, text: string, mtimeMs?: number) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  if (mtimeMs !== undefined) utimesSync(path, new Date(mtimeMs), new Date(mtimeMs));
  return path;
};
const old = Date.now() - 60_000;

describe("DiskView", () => {
  test("the first look reports only files written since the server started", () => {
    const before = file("before.ts", "a", old - 10_000);
    const after = file("after.ts", "b", old + 10_000);
    const view = new DiskView(old);
    expect(view.lookAtAll([before, after])).toEqual([{ path: after, kind: "created" }]);
    expect(view.hasLooked).toBe(true);
  });

  test("a stamp the call's discovery took is the look at that file: the file itself is not looked at again", () => {
    const a = file("known-a.ts", "1", old);
    const b = file("known-b.ts", "2", old);
    const view = new DiskView(old + RACY_MS + 1000);
    expect(view.lookAtAll([a, b])).toEqual([]);
    // What discovery saw differs from what the file holds now: the view goes by what it is handed.
    const seen = new Map([[a, { stamp: "another", mtimeMs: old }]]);
    expect(view.lookAtAll([a, b], undefined, Date.now(), seen)).toEqual([{ path: a, kind: "changed" }]);
    expect(view.lookAtAll([a, b], undefined, Date.now(), seen)).toEqual([]);
  });

  test("later looks report created, changed (the stat, or a racy file) and deleted files", () => {
    const a = file("a.ts", "1", old);
    const b = file("b.ts", "2", old);
    const view = new DiskView(old + RACY_MS + 1000);
    expect(view.lookAtAll([a, b])).toEqual([]);
    const c = file("c.ts", "3", old);
    file("a.ts", "9", old); // same size and mtime: the ctime still moves
    rmSync(b);
    expect(view.lookAtAll([a, c])).toEqual([
      { path: a, kind: "changed" },
      { path: c, kind: "created" },
      { path: b, kind: "deleted" },
    ]);
    expect(view.lookAtAll([a, c])).toEqual([]);
  });

  test("a file written within the racy margin is compared by content, not reported again while it is the same", () => {
    const now = Date.now();
    const fresh = file("fresh.ts", "x", now);
    const view = new DiskView(old);
    expect(view.lookAtAll([fresh], undefined, now)).toEqual([{ path: fresh, kind: "created" }]);
    // A fresh clone: every file racy at the first look, none changed since.
    expect(view.lookAtAll([fresh], undefined, now)).toEqual([]);
    const later = statSync(fresh).mtimeMs + RACY_MS + 1;
    expect(view.lookAtAll([fresh], undefined, later)).toEqual([]);
    // A write the stat shows is reported at once, racy or not.
    file("fresh.ts", "yy", now);
    expect(view.lookAtAll([fresh], undefined, now)).toEqual([{ path: fresh, kind: "changed" }]);
  });

  test("a look at the recorded files finds changes, deletions and new files in their folders (sub-folders too)", () => {
    const sub = tempDir("lspmcp-disk-view-quick-");
    const a = join(sub, "r.ts");
    writeFileSync(a, "1");
    utimesSync(a, new Date(old), new Date(old));
    const view = new DiskView(old + RACY_MS + 1000, (path) => path.endsWith(".ts"));
    view.lookAtAll([a]);
    writeFileSync(a, "22");
    writeFileSync(join(sub, "new.ts"), "n");
    writeFileSync(join(sub, "notes.md"), "not wanted");
    mkdirSync(join(sub, "deeper"));
    writeFileSync(join(sub, "deeper", "deep.ts"), "d");
    mkdirSync(join(sub, "node_modules"));
    writeFileSync(join(sub, "node_modules", "skipped.ts"), "s");
    expect(
      view
        .lookAtRecorded()
        .map(({ path, kind }) => [path.slice(sub.length + 1), kind])
        .sort(),
    ).toEqual([
      ["deeper/deep.ts", "created"],
      ["new.ts", "created"],
      ["r.ts", "changed"],
    ]);
    rmSync(a);
    expect(view.lookAtRecorded().filter((change) => change.path === a)).toEqual([{ path: a, kind: "deleted" }]);
  });

  test("a folder of the listing that held no relevant file is looked at too", () => {
    const root = tempDir("lspmcp-disk-view-folders-");
    const docs = join(root, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "guide.md"), "text");
    const view = new DiskView(old, (path) => path.endsWith(".ts"));
    view.lookAtAll([], [root, docs]);
    writeFileSync(join(docs, "example.ts"), "x");
    expect(view.lookAtRecorded()).toEqual([{ path: join(docs, "example.ts"), kind: "created" }]);
  });
});
