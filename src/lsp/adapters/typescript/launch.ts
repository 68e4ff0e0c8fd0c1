import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { dependencyFolder, locateDependencyPath } from "../../../config/package-dependency.js";
import { packageRoot } from "../../../config/package-root.js";
import type { ResolvedServer } from "../../../config/types.js";
import { BridgeError } from "../../../contract/errors.js";
import type { AnsweringChoice, ServerLaunch } from "../launch.js";
import type { CompilerReport } from "../server-adapter.js";
import {
  chooseTypescriptCompiler,
  describeTypescriptPackage,
  nativeCompilerExecutable,
  pinnedTypescriptPackage,
  tsserverPath,
  type TypescriptCompiler,
} from "./compiler.js";

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

/**
 * The launch of an entry that runs typescript-language-server itself (`adapter = "tsserver"`, or
 * its command recognised as that package's): its program as written, given the tsserver that
 * answers as the project's own `tsc` would — the entry's `tsserver.path` when it sets one, else
 * the workspace's own TypeScript 5.x or 6.x, else the `typescript` package the server itself
 * depends on — and confirmed by asking that tsserver its version once it runs.
 */
export function tsserverEntryLaunch(server: ResolvedServer, workspaceRoot: string): ServerLaunch {
  const compiler = tsserverCompilerFor(server, workspaceRoot);
  const configured = (server.initialization_options.tsserver ?? {}) as Record<string, unknown>;
  return {
    command: server.command,
    args: server.args,
    version: server.version,
    versionCommand: server.version_command,
    initializationOptions: { ...server.initialization_options, tsserver: { ...configured, path: tsserverPath(compiler) } },
    settings: server.settings,
    compiler: { name: "typescript", version: compiler.version, source: compiler.source, path: compiler.packageDir },
    adapter: "tsserver",
  };
}

/** Which TypeScript answers a typescript-language-server entry, in words, or why none can. */
export function describeTsserverChoice(server: Pick<ResolvedServer, "command" | "initialization_options">, workspaceRoot: string): AnsweringChoice {
  try {
    const compiler = tsserverCompilerFor(server, workspaceRoot);
    return { answers: `TypeScript ${compiler.version}`, own: compiler.source === "pinned" ? null : compiler.packageDir };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function tsserverCompilerFor(server: Pick<ResolvedServer, "command" | "initialization_options">, workspaceRoot: string): TypescriptCompiler {
  const path = ((server.initialization_options.tsserver ?? {}) as Record<string, unknown>).path;
  // A path the entry sets is the user's choice: `lib/tsserver.js` of the package it names.
  const compiler =
    typeof path === "string"
      ? describeTypescriptPackage(dirname(dirname(path)), "workspace")
      : chooseTypescriptCompiler(workspaceRoot, bundledTypescript(server.command));
  if (compiler.kind === "native") {
    throw new BridgeError(
      "ServerStartFailed",
      `TypeScript ${compiler.version} at ${compiler.packageDir} has no tsserver for typescript-language-server to drive; profile "typescript" answers it with its own language server`,
      { compiler_path: compiler.packageDir, compiler_version: compiler.version },
    );
  }
  return compiler;
}

/** The `typescript` package that typescript-language-server at `command` depends on, as Node finds it from its package. */
function bundledTypescript(command: string): string {
  let dir = dirname(realpathOr(command));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  const found = dependencyFolder("typescript", dir);
  if (found === null) throw new BridgeError("ServerStartFailed", `typescript-language-server at ${command} finds no typescript package beside it`, {});
  return found;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
