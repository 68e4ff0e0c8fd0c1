import { requestPullDiagnostics } from "../../lsp/features/pull-diagnostics.js";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";
import { standardAdapter } from "../standard.js";
import { nativeChangeQueries } from "./change-queries.js";
import { reachByShapes } from "./change-reach.js";
import { OwnProjectPulls } from "./own-project-pulls.js";
import { ProgramPulls } from "./program-pulls.js";

/**
 * TypeScript 7's native language server (`tsc --lsp --stdio`). The bridge watches its files: it
 * declares client-side watching, and tells the server of every change it finds on disk before
 * the server answers. A pull of a file, opened or not, is complete on its own (the server brings
 * its program up to date with every change it was told of, loading the project when needed,
 * before it answers), so a whole project is answered by one pull per file with none opened
 * (each under its own project: `own-project-pulls.ts`), or, for most of a project's files at
 * once, by its API session's whole-program answers (`program-pulls.ts`); a document needs no
 * settle wait.
 * Which compiler runs is chosen at each start (`launch.ts`): this adapter for TypeScript 7,
 * `tsserver` for 5.x and 6.x.
 */
export function typescriptAdapter(link: ServerLink): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "typescript",
    filesWatchedBy: "bridge",
    watchedFiles: TYPESCRIPT_PROGRAM_FILES,
    // It finds each file's project itself (own-project-pulls.ts); the roots are only reported.
    projectsAsFolders: false,
    // Its informational log has a line per request handled: as many messages again as answers,
    // each framed and parsed by the bridge, for a log nobody reads below debug.
    initializationOptions: (configured, _projects, logRead) => (logRead ? { ...configured } : { logVerbosity: LOG_WARNINGS_AND_ERRORS, ...configured }),
    projectModel: {
      answersUnopened: true,
      documentDiagnostics: (uri, options) => requestPullDiagnostics(link, uri, options),
      awaitProjectLoaded: null,
      projectPulls: (host) => new ProgramPulls(link, host, new OwnProjectPulls(link, host)),
      changeReach: (kept, options) => reachByShapes(nativeChangeQueries(link, kept, options)),
      confirmToolchain: null,
    },
  };
}

/** TypeScript 7's `logVerbosity` that keeps its warnings and errors and drops its informational lines. */
const LOG_WARNINGS_AND_ERRORS = 4;

/** The files a TypeScript program can depend on: sources, declarations, JSON (modules, tsconfig, package.json). */
export const TYPESCRIPT_PROGRAM_FILES = /\.(?:[cm]?tsx?|[cm]?jsx?|json)$/;
