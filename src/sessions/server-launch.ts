import { locateDependencyPath } from "../config/package-dependency.js";
import { packageRoot } from "../config/package-root.js";
import { BridgeError } from "../contract/errors.js";
import type { AdapterName, ResolvedServer } from "../config/types.js";
import {
  chooseTypescriptCompiler,
  nativeCompilerExecutable,
  pinnedTypescriptPackage,
  tsserverPath,
  type CompilerSource,
  type TypescriptCompiler,
} from "../config/typescript-compiler.js";

/** The compiler that answers a session, as `session_status`, `check`'s report and stderr name it. */
export interface CompilerReport {
  readonly name: string;
  readonly version: string;
  readonly source: CompilerSource;
  /** The compiler package's folder. */
  readonly path: string;
}

/**
 * What one session starts: the server entry as configured, or — for a profile whose compiler the
 * workspace may bring (TypeScript) — the server that compiler needs, with the version it must
 * report. Everything else of the entry (languages, env, caps) stays as configured.
 */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** What the started server must report (its serverInfo.version, or `versionCommand`'s output). */
  readonly version: string;
  readonly versionCommand: readonly string[] | null;
  readonly initializationOptions: Readonly<Record<string, unknown>>;
  readonly settings: Readonly<Record<string, unknown>>;
  /** The compiler that answers, when the server's answers are a compiler's; else null. */
  readonly compiler: CompilerReport | null;
  /**
   * The adapter of the server that runs: the entry's, or for TypeScript the one its compiler
   * needs ("tsserver": typescript-language-server, whose tsserver's version is asked after `initialize`).
   */
  readonly adapter: AdapterName;
}

/**
 * The pin of typescript-language-server, which lspmcp runs (from its own dependencies) for a
 * workspace whose own TypeScript is 5.x or 6.x. It sends no serverInfo.version, so the pin is
 * read from `--version`. (Its 6.x needs Node 22.)
 */
export const TYPESCRIPT_LANGUAGE_SERVER_VERSION = "5.3.0";

/**
 * The launch of `server` for a workspace at `workspaceRoot`. Throws `ServerStartFailed` (naming
 * the path) when the workspace's own compiler cannot answer; reads only a few small files.
 */
export function launchFor(server: ResolvedServer, workspaceRoot: string): ServerLaunch {
  if (server.adapter !== "typescript") {
    return {
      command: server.command,
      args: server.args,
      version: server.version,
      versionCommand: server.version_command,
      initializationOptions: server.initialization_options,
      settings: server.settings,
      compiler: null,
      adapter: server.adapter,
    };
  }
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
    // The rest of its options are its adapter's (src/lsp/adapters/tsserver.ts).
    initializationOptions: { tsserver: { path: tsserverPath(compiler) } },
    settings: {},
    compiler: report,
    adapter: "tsserver",
  };
}

/**
 * The TypeScript compiler a workspace is answered by: its own `node_modules/typescript` when it
 * has one, else the pinned package, whose `bin/tsc` is the profile's `command`.
 */
export function typescriptCompilerFor(server: ResolvedServer, workspaceRoot: string): TypescriptCompiler {
  return chooseTypescriptCompiler(workspaceRoot, pinnedTypescriptPackage(server.command));
}
