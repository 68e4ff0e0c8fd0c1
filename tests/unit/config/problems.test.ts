import { describe, expect, test } from "vitest";
import { formatKeyPath, formatProblem, sortProblems } from "../../../src/config/problems.js";

describe("problem key paths", () => {
  test("are written as TOML keys, quoting keys that are not bare", () => {
    expect(formatKeyPath(["server", 1, "command"])).toBe("server[1].command");
    expect(formatKeyPath(["workspace", 0, "default_server", ".h"])).toBe('workspace[0].default_server.".h"');
    expect(formatKeyPath(["server", 0, "env", "MY VAR"])).toBe('server[0].env."MY VAR"');
    expect(formatKeyPath([])).toBe("");
  });

  test("sort by path with numeric indices, keeping discovery order within a path", () => {
    const sorted = sortProblems([
      { path: "workspace[0].root", message: "w" },
      { path: "server[10].name", message: "s10" },
      { path: "server[2].name", message: "first" },
      { path: "server[2].name", message: "second" },
      { path: "", message: "file" },
    ]);
    expect(sorted.map(formatProblem)).toEqual(["file", "server[2].name: first", "server[2].name: second", "server[10].name: s10", "workspace[0].root: w"]);
  });
});
