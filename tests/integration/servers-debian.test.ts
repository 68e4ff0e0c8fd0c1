import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { copyFixtureWorkspace, profilesConfig } from "../helpers/workspace.js";

// The Debian-installed servers of issue 20, one bridge, every session started at once (beforeAll).
// gopls moved to the Go module proxy in issue 28: tests/integration/servers-go.test.ts.
const FILES = { pylsp: "inventory_lint.py", ccls: "cafe.c", fortls: "cafe.f90" } as const;

let bridge: Bridge;
let root: string;
const diagnostics: Record<string, any> = {};
const source = (path: string) => readFileSync(join(root, path), "utf8");
/** The range of `needle` (its first occurrence after `after`), `length` code points long. */
const rangeOf = (path: string, needle: string, after = "", length = [...needle].length) => {
  const start = positionOf(source(path), needle, after);
  return { start, end: { line: start.line, column: start.column + length } };
};

beforeAll(async () => {
  for (const binary of ["pylsp", "ccls", "fortls"]) requireBinary(binary);
  root = copyFixtureWorkspace("langs");
  bridge = await startBridge(writeConfig(profilesConfig(root, Object.keys(FILES))));
  const answers = await Promise.all(Object.values(FILES).map((path) => bridge.ok("diagnostics", { path })));
  Object.keys(FILES).forEach((name, i) => (diagnostics[name] = answers[i]));
});
afterAll(async () => bridge?.close());

describe("diagnostics of the Debian servers, at exact code-point columns", () => {
  test("pylsp with pyflakes: UTF-8 byte columns converted, a range end past the line clamped", () => {
    const unused = positionOf(source("inventory_lint.py"), "import os");
    expect(diagnostics.pylsp.items).toEqual([
      {
        path: "inventory_lint.py",
        // pyflakes says characters 0..10 of the 9-character line "import os".
        range: { start: unused, end: { line: unused.line, column: "import os".length + 1 } },
        severity: "warning",
        code: null,
        source: "pyflakes",
        message: "'os' imported but unused",
        channels: ["push"],
      },
      {
        path: "inventory_lint.py",
        // pylsp's range for it stops one character short of the name (bytes 27..39 of the line).
        range: rangeOf("inventory_lint.py", "undefined_cup", "", "undefined_cup".length - 1),
        severity: "error",
        code: null,
        source: "pyflakes",
        message: "undefined name 'undefined_cup'",
        channels: ["push"],
      },
    ]);
  });

  test("ccls: code-point columns after an astral character", () => {
    expect(diagnostics.ccls.items).toEqual([
      {
        path: "cafe.c",
        range: rangeOf("cafe.c", "bad", "🍵"),
        severity: "error",
        code: "2",
        source: "ccls",
        message: "initializing 'int' with an expression of incompatible type 'struct cup'",
        channels: ["push"],
      },
    ]);
  });

  test("ccls writes no .ccls-cache into the workspace", () => {
    expect(existsSync(join(root, ".ccls-cache"))).toBe(false);
  });

  test("fortls: code-point columns after an astral character", () => {
    expect(diagnostics.fortls.items).toEqual([
      {
        path: "cafe.f90",
        range: rangeOf("cafe.f90", "n", '"🍵"; integer :: '),
        severity: "error",
        code: null,
        source: null,
        message: 'Variable "n" declared twice in scope',
        channels: ["push"],
      },
    ]);
  });
});

describe("hover of the Debian servers", () => {
  const hover = async (path: string, needle: string, after = "") => bridge.ok("hover", { path, ...positionOf(source(path), needle, after) });

  test("each server describes the symbol under the cursor", async () => {
    const [pylsp, ccls, fortls] = await Promise.all([hover("inventory_lint.py", "brew(2)"), hover("cafe.c", "pour(c)"), hover("cafe.f90", "brew(2)")]);
    expect(pylsp.contents).toContain("Brew some coffee.");
    expect(ccls.contents).toContain("int pour(struct cup c)");
    expect(fortls.contents).toContain("FUNCTION brew(cups) RESULT(brew)");
  });

  test("a position after an astral character reaches ccls as a code-point offset", async () => {
    const at = rangeOf("cafe.c", "bad", "🍵");
    const result = await bridge.ok("hover", { path: "cafe.c", ...at.start });
    expect(result.contents).toContain("int bad");
    expect(result.range).toEqual(at);
  });
});

describe("definition of the Debian servers", () => {
  const definition = async (path: string, needle: string, after = "") => bridge.ok("definition", { path, ...positionOf(source(path), needle, after) });

  test("each server goes from a call to the name where it is defined", async () => {
    const [pylsp, ccls, fortls] = await Promise.all([
      definition("inventory_lint.py", "brew(2)"),
      definition("cafe.c", "pour(c)"),
      definition("cafe.f90", "brew(2)"),
    ]);
    // The name itself: ccls answers a LocationLink whose range is the whole declaration.
    const landing = (result: any) => result.items.map((item: any) => [item.path, item.selection_range, item.text]);
    expect(landing(pylsp)).toEqual([["inventory_lint.py", rangeOf("inventory_lint.py", "brew", "def "), "def brew(cups):"]]);
    expect(landing(ccls)).toEqual([["cafe.c", rangeOf("cafe.c", "pour", "int "), "int pour(struct cup c) { return c.size; }"]]);
    expect(landing(fortls)).toEqual([["cafe.f90", rangeOf("cafe.f90", "brew", "integer function "), "  integer function brew(cups)"]]);
  });
});

describe("pylsp without pyflakes", () => {
  test("refuses to start rather than report every file clean", async () => {
    // A pyflakes that cannot be imported, put first on the path of pylsp and its version command.
    const stubs = join(root, "..", "no-pyflakes");
    mkdirSync(join(stubs, "pyflakes"), { recursive: true });
    writeFileSync(join(stubs, "pyflakes", "__init__.py"), "raise ImportError('pyflakes is not installed')\n");
    const other = await startBridge(writeConfig(profilesConfig(root, ["pylsp"], { overrides: { pylsp: `env = { PYTHONPATH = ${JSON.stringify(stubs)} }` } })));
    try {
      const error = await other.fail("diagnostics", { path: "inventory_lint.py" });
      expect(error.code).toBe("ServerStartFailed");
      expect(error.message).toContain("version_command of pylsp failed");
    } finally {
      await other.close();
    }
  });
});
