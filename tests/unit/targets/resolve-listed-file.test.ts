// A listed file is resolved as `resolveFile` would resolve it, with only links followed: the
// target of a link inside the workspace, nothing for what is no file to check.
import { mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ResolvedWorkspace } from "../../../src/config/types.js";
import { fileStamp, type FileStamp } from "../../../src/files/file-stamp.js";
import { resolveFile, resolveListedFile } from "../../../src/targets/resolve-target.js";
import { tempDir } from "../../helpers/temp.js";

test("regular files as they are, links to their target inside the root, nothing for the rest", () => {
  const root = realpathSync(tempDir("lspmcp-listed-"));
  const outside = realpathSync(tempDir("lspmcp-outside-"));
  writeFileSync(join(outside, "far.ts"), "");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.ts"), "");
  symlinkSync(join(root, "src", "a.ts"), join(root, "src", "link.js"));
  symlinkSync(join(outside, "far.ts"), join(root, "src", "far.ts"));
  symlinkSync(join(root, "src"), join(root, "folder-link"));
  symlinkSync(join(root, "missing.ts"), join(root, "dangling.ts"));
  mkdirSync(join(root, "sub"));
  const workspace = { name: "w", root } as ResolvedWorkspace;

  expect(resolveListedFile(workspace, "src/a.ts")).toEqual(resolveFile(workspace, "src/a.ts"));
  expect(resolveListedFile(workspace, "src/a.ts")).toEqual({ absolutePath: join(root, "src", "a.ts"), path: "src/a.ts", extension: ".ts", name: "a.ts" });
  // A link is its target, with the target's name and extension.
  expect(resolveListedFile(workspace, "src/link.js")).toEqual({ absolutePath: join(root, "src", "a.ts"), path: "src/a.ts", extension: ".ts", name: "a.ts" });
  for (const gone of ["src/far.ts", "folder-link", "dangling.ts", "sub", "deleted.ts"]) expect(resolveListedFile(workspace, gone), gone).toBeNull();
});

test("the stamp of each regular file looked at is kept by its path; a link's is not (its target is another file)", () => {
  const root = realpathSync(tempDir("lspmcp-listed-stamps-"));
  writeFileSync(join(root, "a.ts"), "export {};\n");
  symlinkSync(join(root, "a.ts"), join(root, "link.ts"));
  const workspace = { name: "w", root } as ResolvedWorkspace;
  const stamps = new Map<string, FileStamp>();
  resolveListedFile(workspace, "a.ts", stamps);
  resolveListedFile(workspace, "link.ts", stamps);
  expect([...stamps.keys()]).toEqual([join(root, "a.ts")]);
  expect(stamps.get(join(root, "a.ts"))).toEqual(fileStamp(statSync(join(root, "a.ts"), { bigint: true })));
});
