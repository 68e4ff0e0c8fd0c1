import { describe, expect, it } from "vitest";
import { applyHunks, parseUnifiedDiff } from "../../../src/diagnostics/changes/unified-diff.js";
import { BridgeError } from "../../../src/contract/errors.js";

const OLD = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

function apply(patch: string, texts: Record<string, string>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const diff of parseUnifiedDiff(patch)) {
    if (diff.oldPath !== null && diff.oldPath !== diff.newPath) out[diff.oldPath] = null;
    if (diff.newPath !== null) out[diff.newPath] = applyHunks(diff.newPath, diff.oldPath === null ? "" : texts[diff.oldPath]!, diff.hunks);
  }
  return out;
}

function thrown(run: () => unknown): BridgeError {
  try {
    run();
  } catch (error) {
    if (error instanceof BridgeError) return error;
    throw error;
  }
  throw new Error("expected a BridgeError");
}

describe("unified diffs as git diff prints them", () => {
  it("changes a file: context, removed and added lines", () => {
    const patch = [
      "diff --git a/src/a.ts b/src/a.ts",
      "index 1111111..2222222 100644",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -2,3 +2,3 @@ one",
      " two",
      "-three",
      "+THREE",
      " four",
      "@@ -6,2 +6,3 @@ five",
      " six",
      " seven",
      "+eight",
      "",
    ].join("\n");
    expect(apply(patch, { "src/a.ts": OLD })).toEqual({ "src/a.ts": "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n" });
  });

  it("creates and deletes files (/dev/null), and keeps a missing final newline", () => {
    const patch = [
      "diff --git a/new.py b/new.py",
      "new file mode 100644",
      "index 0000000..3333333",
      "--- /dev/null",
      "+++ b/new.py",
      "@@ -0,0 +1,2 @@",
      "+x = 1",
      "+y = 2",
      "\\ No newline at end of file",
      "diff --git a/old.py b/old.py",
      "deleted file mode 100644",
      "index 4444444..0000000",
      "--- a/old.py",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-z = 3",
      "",
    ].join("\n");
    expect(apply(patch, { "old.py": "z = 3\n" })).toEqual({ "new.py": "x = 1\ny = 2", "old.py": null });
  });

  it("takes a newline off a removed line marked mid-hunk, and adds one", () => {
    const patch = ["--- a/f.go", "+++ b/f.go", "@@ -1,2 +1,2 @@", " package f", "-var x = 1", "\\ No newline at end of file", "+var x = 2", ""].join("\n");
    expect(apply(patch, { "f.go": "package f\nvar x = 1" })).toEqual({ "f.go": "package f\nvar x = 2\n" });
  });

  it("reads a rename with hunks, quoted paths and an empty created file", () => {
    const patch = [
      "diff --git a/lib/old name.ts b/lib/new name.ts",
      "similarity index 80%",
      "rename from lib/old name.ts",
      "rename to lib/new name.ts",
      "index 5555555..6666666 100644",
      "--- a/lib/old name.ts",
      "+++ b/lib/new name.ts",
      "@@ -1 +1 @@",
      "-export const a = 1;",
      "+export const a = 2;",
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      "new file mode 100644",
      "index 0000000..e69de29",
      "",
    ].join("\n");
    expect(apply(patch, { "lib/old name.ts": "export const a = 1;\n" })).toEqual({
      "lib/old name.ts": null,
      "lib/new name.ts": "export const a = 2;\n",
      "café.txt": "",
    });
  });

  it("applies a hunk whose lines moved (an offset), as git apply does", () => {
    const patch = ["--- a/a.ts", "+++ b/a.ts", "@@ -2,2 +2,2 @@", " six", "-seven", "+SEVEN", ""].join("\n");
    expect(apply(patch, { "a.ts": OLD })).toEqual({ "a.ts": "one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n" });
  });

  it("leaves out a mode-only change", () => {
    const patch = ["diff --git a/run.sh b/run.sh", "old mode 100644", "new mode 100755", ""].join("\n");
    expect(() => parseUnifiedDiff(patch)).toThrow(/holds no file diff/);
  });

  it("names the file and the hunk that does not apply", () => {
    const patch = ["--- a/src/a.ts", "+++ b/src/a.ts", "@@ -1,1 +1,1 @@", "-one", "+ONE", "@@ -3,1 +3,1 @@", "-not there", "+x", ""].join("\n");
    const error = thrown(() => apply(patch, { "src/a.ts": OLD }));
    expect(error.code).toBe("InvalidArguments");
    expect(error.details.patch).toEqual({ file: "src/a.ts", hunk: 2, header: "@@ -3,1 +3,1 @@" });
  });

  it("refuses what is not a diff, a binary diff, a short hunk, a file twice", () => {
    expect(thrown(() => parseUnifiedDiff("hello\n")).details.patch).toEqual({});
    const binary = ["diff --git a/i.png b/i.png", "index 1..2 100644", "Binary files a/i.png and b/i.png differ", ""].join("\n");
    expect(thrown(() => parseUnifiedDiff(binary)).message).toMatch(/binary/);
    const short = ["--- a/a.ts", "+++ b/a.ts", "@@ -1,3 +1,3 @@", " one", ""].join("\n");
    expect(thrown(() => parseUnifiedDiff(short)).details.patch).toMatchObject({ file: "a.ts", hunk: 1 });
    const twice = ["--- a/a.ts", "+++ b/a.ts", "@@ -1 +1 @@", "-one", "+1", "--- a/a.ts", "+++ b/a.ts", "@@ -2 +2 @@", "-two", "+2", ""].join("\n");
    expect(thrown(() => parseUnifiedDiff(twice)).details.patch).toEqual({ file: "a.ts" });
  });
});
