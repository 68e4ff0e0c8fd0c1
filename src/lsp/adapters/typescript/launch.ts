import { locateDependencyPath } from "../../../config/package-dependency.js";
import { packageRoot } from "../../../config/package-root.js";
import type { ResolvedServer } from "../../../config/types.js";
import { BridgeError } from "../../../contract/errors.js";
import type { ServerLaunch } from "../launch.js";
import type { CompilerReport } from "../server-adapter.js";
import { chooseTypescriptCompiler, nativeCompilerExecutable, pinnedTypescriptPackage, tsserverPath, type TypescriptCompiler } from "./compiler.js";

/**
 * The pin of typescript-language-server, which lspmcp runs (from its own dependencies) for a
 * workspace whose own TypeScript is 5.x or 6.x. It sends no serverInfo.version, so the pin is
 * read from `--version`. (Its 6.x needs Node 22.)
 */
export const TYPESCRIPT_LANGUAGE_SERVER_VERSION = "5.3.0";

/**
 * The launch of a TypeScript profile for a workspace at `workspaceRoot`: the server its compiler
 * needs (TypeScript 7's own, or typescript-language-server driving a 5.x or 6.x tsserver), with
 * the version it must report. Throws `ServerStartFailed` (naming the path) when the workspace's
 * own compiler cannot answer; reads only a few small files.
 */
export function typescriptLaunch(server: ResolvedServer, workspaceRoot: string): ServerLaunch {
  const compiler = typescriptCompilerFor(server, workspaceRoot);
  // The pinned package is held to the pin before anything starts (a reinstall of another version
  // under a running bridge); a workspace's own is what it says it is.
  if (compiler.source === "pinned" && compiler.version !== server.version) {
    throw new BridgeError("ServerVersionMismatch", `the pinned TypeScript package at ${compiler.packageDir} is ${compiler.version}, pinned ${server.version}`, {
      server: server.name,
      pinned: server.version,
      reported: compiler.version,
    });
  }
  const report: CompilerReport = { name: "typescript", version: compiler.version, source: compiler.source, path: compiler.packageDir };
  if (compiler.kind === "native") {
    return {
      command: nativeCompilerExecutable(compiler),
      args: server.args,
      version: compiler.version,
      versionCommand: null,
      initializationOptions: server.initialization_options,
      settings: server.settings,
      compiler: report,
      adapter: "typescript",
    };
  }
  // lspmcp's own dependency, wherever the install put it (hoisted into the project that installed
  // lspmcp, or in pnpm's store).
  const located = locateDependencyPath("node_modules/.bin/typescript-language-server", packageRoot());
  if (!located?.ok) {
    throw new BridgeError("ServerStartFailed", `typescript-language-server, which drives TypeScript ${compiler.version}, is missing: ${located?.message}`, {
      server: server.name,
    });
  }
  const languageServer = located.path;
  return {
    command: languageServer,
    args: ["--stdio"],
    version: TYPESCRIPT_LANGUAGE_SERVER_VERSION,
    versionCommand: [languageServer, "--version"],
    // The rest of its options are its adapter's (tsserver-adapter.ts).
    initializationOptions: { tsserver: { path: tsserverPath(compiler) } },
    settings: {},
    compiler: report,
    adapter: "tsserver",
  };
}

/**
 * Which TypeScript answers a workspace, in words: "TypeScript 7.0.2 (pinned)", or the workspace's
 * own with its folder; what stops it from starting when it cannot.
 */
export function describeTypescriptChoice(
  server: Pick<ResolvedServer, "command">,
  workspaceRoot: string,
): { readonly answers: string; readonly own: string | null } | { readonly error: string } {
  try {
    const compiler = typescriptCompilerFor(server, workspaceRoot);
    return { answers: `TypeScript ${compiler.version}`, own: compiler.source === "pinned" ? null : compiler.packageDir };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * The TypeScript compiler a workspace is answered by: its own `node_modules/typescript` when it
 * has one, else the pinned package, whose `bin/tsc` is the profile's `command`.
 */
function typescriptCompilerFor(server: Pick<ResolvedServer, "command">, workspaceRoot: string): TypescriptCompiler {
  return chooseTypescriptCompiler(workspaceRoot, pinnedTypescriptPackage(server.command));
}
