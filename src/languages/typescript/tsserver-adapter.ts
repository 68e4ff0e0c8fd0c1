import { fileURLToPath } from "node:url";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";
import { standardAdapter } from "../standard.js";
import { tsserverChangeQueries } from "./change-queries.js";
import { reachByShapes } from "./change-reach.js";
import { TYPESCRIPT_PROGRAM_FILES } from "./native-adapter.js";
import { requestTsserverDiagnostics } from "./tsserver-diagnostics.js";
import { requestTsserverProjectLoaded, requestTsserverVersion } from "./tsserver-project.js";
import { TsserverProjectPulls } from "./tsserver-project-pulls.js";
import type { Deadline } from "../../contract/deadline.js";
import { BridgeError } from "../../contract/errors.js";
import type { ToolchainReport } from "../../lsp/project-model.js";

/**
 * typescript-language-server driving a TypeScript 5.x or 6.x tsserver. The bridge watches its
 * files (tsserver's `useClientFileWatcher`: it hears of changes from the bridge, not from its own
 * asynchronous watchers, which also walked node_modules). One tsserver, not two: the
 * partial-semantic "syntax" server builds an inferred project for every opened file, work no
 * answer uses. No automatic typings acquisition: it downloads @types at run time, which `tsc`
 * never does. Its diagnostics, whole-project answers and navigation readiness go through
 * tsserver's own requests (`tsserver-*.ts`), through the `typescript.tsserverRequest` command it
 * offers.
 */
export function tsserverAdapter(link: ServerLink): ServerAdapter {
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
    projectModel: {
      answersUnopened: false,
      // Its pushes come once per diagnostic kind, debounced and without a version, so none can be
      // known to be the last; the passthrough answers all three kinds at once, for the synced text.
      documentDiagnostics: (uri, options) => requestTsserverDiagnostics(link, uri, options),
      // It answers navigation from a syntax-only tsserver while the project loads (1 of 6
      // references, definitions that stop at the import); `projectInfo` is answered once the
      // file's project is loaded.
      awaitProjectLoaded: (uri, options) => requestTsserverProjectLoaded(link, fileURLToPath(uri), options),
      projectPulls: (host) => new TsserverProjectPulls(link, host),
      changeReach: (_kept, options) => reachByShapes(tsserverChangeQueries(link, options)),
      confirmToolchain: (compiler, deadline) => confirmTsserverVersion(link, compiler, deadline),
    },
  };
}

/**
 * Asks the tsserver that typescript-language-server runs for its version and throws
 * `ServerVersionMismatch` unless it is the compiler's; returns it.
 */
async function confirmTsserverVersion(link: ServerLink, compiler: ToolchainReport, deadline: Deadline): Promise<string> {
  const reported = await requestTsserverVersion(link, { deadline });
  if (reported === compiler.version) return reported;
  throw new BridgeError(
    "ServerVersionMismatch",
    `the tsserver that answers reports version ${JSON.stringify(reported)}, but the ${compiler.source} TypeScript at ${compiler.path} is ${compiler.version}`,
    { server: compiler.name, pinned: compiler.version, reported, compiler_path: compiler.path },
  );
}
