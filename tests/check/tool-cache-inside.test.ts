import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// A CI job that keeps its caches under the project folder (GitLab's `$CI_PROJECT_DIR/.cache`):
// lspmcp's tool cache lies inside the checkout, untracked and not ignored, holding the installed
// servers' own files (Python, TypeScript and Go sources among them). Zero-config `check` plans the
// repository by its own files and checks only them.

/** What a tool cache holds besides the servers: sources that would be findings if they were checked. */
const CACHE_SOURCES: Record<string, string> = {
  "ruff/lib/python3.11/site-packages/ruff/__main__.py": "x: int = 'a'\n",
  "basedpyright/node_modules/basedpyright/index.ts": "export const n: number = 'a';\n",
  "build/go/pkg/mod/example.com/dep@v1.0.0/go.mod": "module example.com/dep\n\ngo 1.22\n",
  "build/go/pkg/mod/example.com/dep@v1.0.0/dep.go": 'package dep\n\nvar N int = "a"\n',
  "plain/lib/broken.go": 'package lib\n\nvar N int = "a"\n',
};

/**
 * A repository holding `files`, committed, and a tool cache under `cacheFolder` inside it, made
 * after the commit: untracked and not ignored, as a CI cache restored into the checkout is.
 */
function repoWithCacheIn(files: Record<string, string>, cacheFolder: string): { repo: TempRepo; cacheHome: string } {
  const repo = tempRepo(files);
  const cacheHome = join(repo.root, cacheFolder);
  for (const [path, text] of Object.entries(CACHE_SOURCES)) {
    mkdirSync(dirname(join(cacheHome, "lspmcp", path)), { recursive: true });
    writeFileSync(join(cacheHome, "lspmcp", path), text);
  }
  return { repo, cacheHome };
}

beforeAll(() => requireBuild());

describe("a Go repository with the tool cache inside it (GitLab's .cache)", () => {
  let repo: TempRepo;
  let cacheHome: string;
  beforeAll(() => {
    requireBinary("go");
    const gopls = requireCachedTool("go/bin/gopls");
    ({ repo, cacheHome } = repoWithCacheIn(
      { "go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": 'package main\n\nfunc main() {\n\tvar s int = "x"\n\t_ = s\n}\n' },
      ".cache",
    ));
    mkdirSync(join(cacheHome, "lspmcp/go/bin"), { recursive: true });
    symlinkSync(gopls, join(cacheHome, "lspmcp/go/bin/gopls"));
  });
  afterAll(() => repo?.remove());

  test("zero-config check plans gopls alone and checks the repository's own Go files, none of the cache's", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root, env: { XDG_CACHE_HOME: cacheHome } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/config: embedded default for .*: servers gopls[;\s]/);
    const report = JSON.parse(result.stdout) as { summary: { files: number }; items: { path: string; server: string }[] };
    // main.go and go.mod, which gopls claims too.
    expect(report.summary.files).toBe(2);
    expect([...new Set(report.items.map((item) => `${item.server} ${item.path}`))]).toEqual(["gopls main.go"]);
  });
});

describe("a Python repository with the tool cache in a folder that neither git nor a walk skips", () => {
  test("a Python repository with the cache in a folder git does not skip: pyright checks its one file, none of the cache's", async () => {
    const python = repoWithCacheIn({ "app.py": "total: int = 'a'\n" }, "ci-cache");
    try {
      const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: python.repo.root, env: { XDG_CACHE_HOME: python.cacheHome } });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/config: embedded default for .*: servers pyright[;\s]/);
      const report = JSON.parse(result.stdout) as { summary: { files: number }; items: { path: string; server: string }[] };
      expect(report.summary.files).toBe(1);
      expect([...new Set(report.items.map((item) => `${item.server} ${item.path}`))]).toEqual(["pyright app.py"]);
    } finally {
      python.repo.remove();
    }
  });
});
