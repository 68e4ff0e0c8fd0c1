import { dirname, join, normalize } from "node:path";

// What `npm test` (scripts/run-tests.ts) runs while the tool cache's servers built from source
// are still building, and what waits for them: pure, so that the split is unit-tested.

/** The tool-cache folders a test module names through `requireCachedTool("FOLDER/…")`. */
export function cachedToolsNamed(text: string): Set<string> {
  const folders = new Set<string>();
  for (const match of text.matchAll(/requireCachedTool\(\s*["'`]([^"'`/]+)\//g)) folders.add(match[1] as string);
  return folders;
}

/** The modules a test module imports from its own tree (`./x.js`, `../helpers/y.js`), as `.ts` paths. */
export function localImports(path: string, text: string): string[] {
  const imports: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)\.js["']/g))
    imports.push(normalize(join(dirname(path), `${match[1] as string}.ts`)));
  return imports;
}

/**
 * The test files that need a server in one of `waitingFolders` (tool-cache folders not installed
 * yet): those naming it with `requireCachedTool`, themselves or through a module of the tests' own
 * tree that they import (a helper such as the polyglot repository, which requires what it is
 * served with). `sources` maps each path under the tests' tree to its text; order is kept.
 */
export function filesNeeding(testFiles: readonly string[], sources: ReadonlyMap<string, string>, waitingFolders: ReadonlySet<string>): string[] {
  return testFiles.filter((file) => {
    // Every module reachable from the file through the tests' own imports, each read once.
    const seen = new Set([file]);
    const queue = [file];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const text = sources.get(path);
      if (text === undefined) continue;
      if ([...cachedToolsNamed(text)].some((folder) => waitingFolders.has(folder))) return true;
      for (const imported of localImports(path, text)) {
        if (seen.has(imported)) continue;
        seen.add(imported);
        queue.push(imported);
      }
    }
    return false;
  });
}

/**
 * The test files that `npm test` runs once more under each other Node that `engines` names (22 and
 * 24; the machine's own runs everything), a few minutes a Node: the end-to-end files, whose real
 * bin is found on PATH and its `#!` line chooses that Node, for `check` (every format, `--since`),
 * `serve` (standalone and shared, over the SDK's client) and the progress line on a terminal;
 * `serve --http` (Node's own HTTP server, limits and all); and the preview reservation, whose
 * AsyncLocalStorage works otherwise on Node 24.
 */
export const ON_OTHER_NODES = [
  "tests/e2e/check.test.ts",
  "tests/e2e/serve.test.ts",
  "tests/e2e/progress-line.test.ts",
  "tests/integration/http-serve.test.ts",
  "tests/unit/sessions/preview-reservation.test.ts",
] as const;

/** One failure a test run reported: where (a file, then a suite's or a test's full name) and its error's message. */
export interface Failure {
  where: string;
  message: string | undefined;
}

/**
 * One line per failure, as the end of `npm test` names it under its phase: where, then the first
 * line of the message (a file, a hook or the run itself may fail with no test failed).
 */
export function failureLines(failures: readonly Failure[]): string[] {
  return failures.map(({ where, message }) => `${where}: ${(message ?? "").trim().split("\n")[0] || "failed"}`);
}
