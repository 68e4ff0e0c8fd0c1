import type { ServerAdapter } from "./server-adapter.js";
import { standardAdapter } from "./standard.js";
import { TYPESCRIPT_PROGRAM_FILES } from "./typescript.js";

/**
 * typescript-language-server driving a TypeScript 5.x or 6.x tsserver. The bridge watches its
 * files (tsserver's `useClientFileWatcher`: it hears of changes from the bridge, not from its own
 * asynchronous watchers, which also walked node_modules). One tsserver, not two: the
 * partial-semantic "syntax" server builds an inferred project for every opened file, work no
 * answer uses. No automatic typings acquisition: it downloads @types at run time, which `tsc`
 * never does. Its diagnostics and whole-project answers go through tsserver's own requests
 * (`lsp/features/tsserver-*.ts`), found by the `typescript.tsserverRequest` command it offers.
 */
export function tsserverAdapter(): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "tsserver",
    filesWatchedBy: "bridge",
    watchedFiles: TYPESCRIPT_PROGRAM_FILES,
    // tsserver finds each file's project itself (an opener per tsconfig); the roots are only reported.
    projectsAsFolders: false,
    initializationOptions: (configured) => {
      const tsserver = (configured.tsserver ?? {}) as Record<string, unknown>;
      return {
        ...configured,
        disableAutomaticTypingAcquisition: true,
        tsserver: { ...tsserver, useSyntaxServer: "never", useClientFileWatcher: true },
      };
    },
  };
}
