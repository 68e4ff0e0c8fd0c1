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
