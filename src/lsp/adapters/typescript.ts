import type { ServerAdapter } from "./server-adapter.js";
import { standardAdapter } from "./standard.js";

/**
 * TypeScript 7's native language server (`tsc --lsp --stdio`). The bridge watches its files: it
 * declares client-side watching, and tells the server of every change it finds on disk before
 * the server answers (src/diagnostics/project/). A pull of a file, opened or not, is complete on its
 * own (the server brings its program up to date with every change it was told of, loading the
 * project when needed, before it answers), so a whole project is answered by one pull per file
 * with none opened, and a document needs no settle wait. Which compiler runs is the session's
 * choice (`src/sessions/server-launch.ts`): this adapter for TypeScript 7, `tsserver` for 5.x and 6.x.
 */
export function typescriptAdapter(): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "typescript",
    filesWatchedBy: "bridge",
    watchedFiles: TYPESCRIPT_PROGRAM_FILES,
    answersManyFiles: true,
    // It finds each file's project itself (own-project-pulls.ts); the roots are only reported.
    projectsAsFolders: false,
  };
}

/** The files a TypeScript program can depend on: sources, declarations, JSON (modules, tsconfig, package.json). */
export const TYPESCRIPT_PROGRAM_FILES = /\.(?:[cm]?tsx?|[cm]?jsx?|json)$/;
