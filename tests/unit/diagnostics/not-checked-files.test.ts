import { describe, expect, test } from "vitest";
import { notCheckedFiles } from "../../../src/diagnostics/findings/not-checked-files.js";
import { answer } from "./file-answer.js";

describe("notCheckedFiles", () => {
  test("only the files a server did not check, by path then server, ties in answer order", () => {
    const files = notCheckedFiles([
      answer("w", "gopls", "b.go", "build constraints"),
      answer("w", "gopls", "a.go"),
      answer("v", "gopls", "c.go", "in v"),
      answer("w", "other", "a.go", "not its file"),
      answer("w", "gopls", "c.go", "in w"),
      answer("w", "gopls", "a.go", "also"),
    ]);
    expect(files).toEqual([
      { workspace: "w", server: "gopls", path: "a.go", reason: "also" },
      { workspace: "w", server: "other", path: "a.go", reason: "not its file" },
      { workspace: "w", server: "gopls", path: "b.go", reason: "build constraints" },
      { workspace: "v", server: "gopls", path: "c.go", reason: "in v" },
      { workspace: "w", server: "gopls", path: "c.go", reason: "in w" },
    ]);
  });
});
