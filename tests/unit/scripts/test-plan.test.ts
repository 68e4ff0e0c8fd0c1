import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cachedToolsNamed, failureLines, filesNeeding, localImports, ON_OTHER_NODES } from "../../../scripts/test-plan.js";
import { REPO } from "../../helpers/paths.js";

// Built, so that this file does not itself name a folder to the scan it tests.
const requireCall = "requireCachedTool";

describe("which test files npm test runs after the tool cache's builds", () => {
  test("a module names the folders it requires with requireCachedTool, in any quoting", () => {
    const text = `const a = ${requireCall}("go/bin/gopls");\n${requireCall}(\`emmylua/bin/emmylua_ls\`);\ncachedTool("ruff/bin/ruff");`;
    expect([...cachedToolsNamed(text)]).toEqual(["go", "emmylua"]);
  });

  test("its own tree's imports resolve to .ts paths; packages and the source tree's modules are listed as paths too", () => {
    const text = 'import { a } from "./a.js";\nimport { b } from "../helpers/b.js";\nimport { c } from "vitest";\nconst d = await import("./d.js");';
    expect(localImports("tests/e2e/x.test.ts", text)).toEqual(["tests/e2e/a.ts", "tests/helpers/b.ts", "tests/e2e/d.ts"]);
  });

  test("a file waits when it, or a helper it imports at any depth, requires a folder not installed yet; imports that loop end", () => {
    const sources = new Map([
      ["tests/a.test.ts", `${requireCall}("rust-analyzer/bin/rust-analyzer");`],
      ["tests/b.test.ts", 'import { repo } from "./helpers/repo.js";'],
      ["tests/helpers/repo.ts", 'import { more } from "./more.js";'],
      ["tests/helpers/more.ts", `import { repo } from "./repo.js";\n${requireCall}("go/bin/gopls");`],
      ["tests/c.test.ts", `${requireCall}("ruff/bin/ruff");\nimport { x } from "../src/x.js";`],
      ["tests/d.test.ts", 'import { repo } from "./helpers/missing.js";'],
    ]);
    const files = [...sources.keys()].filter((path) => path.endsWith(".test.ts"));
    expect(filesNeeding(files, sources, new Set(["go", "rust-analyzer"]))).toEqual(["tests/a.test.ts", "tests/b.test.ts"]);
    expect(filesNeeding(files, sources, new Set(["go"]))).toEqual(["tests/b.test.ts"]);
    expect(filesNeeding(files, sources, new Set())).toEqual([]);
  });

  test("on this repository's tests: rust-analyzer's users wait, through the polyglot helper too; the unit tests never do", () => {
    const sources = new Map<string, string>();
    for (const entry of readdirSync(join(REPO, "tests"), { recursive: true, encoding: "utf8" }))
      if (entry.endsWith(".ts") && !entry.split("/").includes("node_modules"))
        sources.set(join("tests", entry), readFileSync(join(REPO, "tests", entry), "utf8"));
    const files = [...sources.keys()].filter((path) => path.endsWith(".test.ts"));
    const later = filesNeeding(files, sources, new Set(["rust-analyzer"]));
    expect(later).toEqual(expect.arrayContaining(["tests/integration/servers-rust.test.ts", "tests/e2e/check.test.ts", "tests/package/install.test.ts"]));
    expect(later).not.toContain("tests/integration/servers-go.test.ts");
    expect(later.filter((path) => path.startsWith("tests/unit/"))).toEqual([]);
  });
});

describe("what npm test says at its end", () => {
  test("one line per failure: where, then the first line of its message; a failure with no message says so", () => {
    expect(
      failureLines([
        { where: "tests/a.test.ts > pnpm add -D lspmcp", message: "Hook timed out in 900000ms.\nIf this is a long-running hook, …" },
        { where: "tests/b.test.ts", message: "  Cannot find module './gone.js'\n" },
        { where: "outside any test", message: undefined },
      ]),
    ).toEqual([
      "tests/a.test.ts > pnpm add -D lspmcp: Hook timed out in 900000ms.",
      "tests/b.test.ts: Cannot find module './gone.js'",
      "outside any test: failed",
    ]);
  });

  test("the files run again under Node 22 and 24 exist; the end-to-end ones drive the bin found on PATH", () => {
    for (const file of ON_OTHER_NODES) expect(existsSync(join(REPO, file)), file).toBe(true);
    const e2e = ON_OTHER_NODES.filter((file) => file.startsWith("tests/e2e/"));
    expect(e2e.length).toBeGreaterThanOrEqual(2);
    for (const file of e2e) expect(readFileSync(join(REPO, file), "utf8"), file).toContain("pathWithLspmcp");
  });
});
