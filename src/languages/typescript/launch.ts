import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { dependencyFolder, locateDependencyPath } from "../../config/package-dependency.js";
import { packageRoot } from "../../config/package-root.js";
import type { ResolvedServer, ToolchainChoice } from "../../config/types.js";
import { checkoutTop } from "../../config/checkout-code.js";
import { restrictedMode } from "../../config/restricted-mode.js";
import { restrictedReason, shown } from "../checkout-code.js";
import { nearestConfig } from "./nearest-config.js";
import { BridgeError } from "../../contract/errors.js";
import type { AnsweringChoice, ServerLaunch, ToolchainLookups, WorkspacePlace } from "../launch.js";
import type { ToolchainReport } from "../../lsp/project-model.js";
import {
  chooseTypescriptCompiler,
  describeTypescriptPackage,
  nativeCompilerExecutable,
  pinnedTypescriptPackage,
  tsserverPath,
  type CompilerChoice,
} from "./compiler.js";

/**
 * The pin of typescript-language-server, which lspmcp runs (from its own dependencies) for a
 * workspace whose own TypeScript is 5.x or 6.x. It sends no serverInfo.version, so the pin is
 * read from `--version`. (Its 6.x needs Node 22.)
 */
const TYPESCRIPT_LANGUAGE_SERVER_VERSION = "5.3.0";

/**
 * The launch of a TypeScript profile for the project folder `from` of a workspace: the server its
 * compiler needs (TypeScript 7's own, or typescript-language-server driving a 5.x or 6.x
 * tsserver), with the version it must report. Throws `ServerStartFailed` (naming the path) when
 * the project's own compiler cannot answer or may not run; reads only a few small files.
 */
export function typescriptLaunch(server: ResolvedServer, workspace: WorkspacePlace, from: string): ServerLaunch {
  const compiler = runnableCompiler(server, typescriptCompilerFor(server, workspace, from));
  // The pinned package is held to the pin before anything starts (a reinstall of another version
  // under a running bridge); a project's own is what it says it is.
  if (compiler.source === "pinned" && compiler.version !== server.version) {
    throw new BridgeError("ServerVersionMismatch", `the pinned TypeScript package at ${compiler.packageDir} is ${compiler.version}, pinned ${server.version}`, {
      server: server.name,
      pinned: server.version,
      reported: compiler.version,
    });
  }
  // Its real folder, which names its toolchain: packages linking one folder (pnpm's store) share it.
  const report: ToolchainReport = {
    name: "typescript",
    title: "TypeScript",
    version: compiler.version,
    source: compiler.source,
    path: realOr(compiler.packageDir),
  };
  if (compiler.kind === "native") {
    return {
      command: nativeCompilerExecutable(compiler),
      args: server.args,
      version: compiler.version,
      versionCommand: null,
      initializationOptions: server.initialization_options,
      settings: server.settings,
      toolchain: report,
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
    toolchain: report,
    adapter: "tsserver",
  };
}

/**
 * Which TypeScript answers the project folder `from`, in words: "TypeScript 7.0.2" and its
 * package folder (null: the pinned one); or why the project's own may not run (its files are not
 * checked), or what stops it from starting.
 */
export const describeTypescriptChoice = describeWith((server, workspace, from) => typescriptCompilerFor(server, workspace, from));

/** What a TypeScript adapter's choice reads of an entry. */
type EntryFields = Pick<ResolvedServer, "name" | "command" | "initialization_options">;

/** A compiler choice told in words, for `validate`, `init` and the reports. */
function describeWith(choose: (server: EntryFields, workspace: WorkspacePlace, from: string) => CompilerChoice) {
  return (server: EntryFields, workspace: WorkspacePlace, from: string): AnsweringChoice => {
    try {
      const choice = choose(server, workspace, from);
      if ("refused" in choice) return { refused: choice.refused, own: choice.packageDir };
      return { answers: `TypeScript ${choice.compiler.version}`, own: choice.compiler.source === "pinned" ? null : choice.compiler.packageDir };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
}

/**
 * The toolchain that answers the file `file` under an entry whose compiler `choose` picks for a
 * project folder: the compiler Node resolves from its project's folder (the nearest
 * tsconfig.json or jsconfig.json at or below the workspace root, else the file's own folder),
 * named by the compiler's real package folder ("pinned" for the pinned one). Never throws: a
 * package that cannot answer is named too, and its session's start says why.
 */
function toolchainOf(choose: (server: EntryFields, workspace: WorkspacePlace, from: string) => CompilerChoice) {
  return (server: EntryFields, workspace: WorkspacePlace, file: string, lookups: ToolchainLookups): ToolchainChoice => {
    const config = nearestConfig(file, workspace.root, lookups.configs);
    const from = dirname(config ?? file);
    const key = `${server.command}\0${from}`;
    const known = lookups.choices.get(key);
    if (known) return known;
    let chosen: ToolchainChoice;
    try {
      const choice = choose(server, workspace, from);
      chosen =
        "refused" in choice
          ? { from, key: realOr(choice.packageDir), refused: choice.refused }
          : { from, key: choice.compiler.source === "pinned" ? "pinned" : realOr(choice.compiler.packageDir), refused: null };
    } catch (error) {
      // A package that cannot answer is its session's to report: its start fails naming it.
      const path = error instanceof BridgeError ? error.details.compiler_path : undefined;
      chosen = { from, key: typeof path === "string" ? realOr(path) : from, refused: null };
    }
    lookups.choices.set(key, chosen);
    return chosen;
  };
}

/** The toolchain of a file under the `typescript` profile (`toolchainOf`). */
export const typescriptToolchain = toolchainOf((server, workspace, from) => typescriptCompilerFor(server, workspace, from));

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The compiler chosen, or `ServerStartFailed` naming the package the checkout may not run. */
function runnableCompiler(server: Pick<ResolvedServer, "name">, choice: CompilerChoice): Exclude<CompilerChoice, { refused: string }>["compiler"] {
  if ("refused" in choice) {
    throw new BridgeError("ServerStartFailed", `TypeScript at ${choice.packageDir} is not run: ${choice.refused}`, {
      server: server.name,
      compiler_path: choice.packageDir,
      reason: choice.refused,
    });
  }
  return choice.compiler;
}

/**
 * The TypeScript compiler a project folder is answered by: its own `node_modules/typescript`
 * when the checkout holds one, else the pinned package, whose `bin/tsc` is the profile's `command`.
 */
function typescriptCompilerFor(server: Pick<ResolvedServer, "name" | "command">, workspace: WorkspacePlace, from: string): CompilerChoice {
  return chooseTypescriptCompiler(from, checkoutTop(workspace), pinnedTypescriptPackage(server.command), packageRoot(), restrictedRefusal(server, workspace));
}

/**
 * In restricted mode, why a project's own compiler found at a package folder is not run: only
 * its projects' files are not checked, and a project with none of its own is answered by the
 * pinned compiler as usual. Null outside restricted mode.
 */
function restrictedRefusal(server: Pick<ResolvedServer, "name">, workspace: WorkspacePlace): ((own: string) => string) | null {
  if (!restrictedMode()) return null;
  return (own) => restrictedReason(server.name, "the project's own TypeScript compiler", shown(workspace.root, own));
}

/**
 * The launch of an entry that runs typescript-language-server itself (`adapter = "tsserver"`, or
 * its command recognised as that package's), for the project folder `from`: its program as
 * written, given the tsserver that answers as the project's own `tsc` would — the entry's
 * `tsserver.path` when it sets one, else the project's own TypeScript 5.x or 6.x when the checkout
 * holds it, else the `typescript` package the server itself depends on — and confirmed by asking
 * that tsserver its version once it runs.
 */
export function tsserverEntryLaunch(server: ResolvedServer, workspace: WorkspacePlace, from: string): ServerLaunch {
  const compiler = runnableCompiler(server, tsserverCompilerFor(server, workspace, from));
  const configured = (server.initialization_options.tsserver ?? {}) as Record<string, unknown>;
  return {
    command: server.command,
    args: server.args,
    version: server.version,
    versionCommand: server.version_command,
    initializationOptions: { ...server.initialization_options, tsserver: { ...configured, path: tsserverPath(compiler) } },
    settings: server.settings,
    toolchain: { name: "typescript", title: "TypeScript", version: compiler.version, source: compiler.source, path: realOr(compiler.packageDir) },
    adapter: "tsserver",
  };
}

/** Which TypeScript answers a typescript-language-server entry for the project folder `from`, in words, or why none can. */
export const describeTsserverChoice = describeWith((server, workspace, from) => tsserverCompilerFor(server, workspace, from));

/** The toolchain of a file under a typescript-language-server entry (`toolchainOf`). */
export const tsserverToolchain = toolchainOf((server, workspace, from) => tsserverCompilerFor(server, workspace, from));

function tsserverCompilerFor(server: EntryFields, workspace: WorkspacePlace, from: string): CompilerChoice {
  const path = ((server.initialization_options.tsserver ?? {}) as Record<string, unknown>).path;
  // A path the entry sets is the user's choice (a configuration that names a program is trusted
  // first): `lib/tsserver.js` of the package it names.
  const choice: CompilerChoice =
    typeof path === "string"
      ? { compiler: describeTypescriptPackage(dirname(dirname(path)), "workspace") }
      : chooseTypescriptCompiler(from, checkoutTop(workspace), bundledTypescript(server.command), packageRoot(), restrictedRefusal(server, workspace));
  if ("compiler" in choice && choice.compiler.kind === "native") {
    const compiler = choice.compiler;
    throw new BridgeError(
      "ServerStartFailed",
      `TypeScript ${compiler.version} at ${compiler.packageDir} has no tsserver for typescript-language-server to drive; profile "typescript" answers it with its own language server`,
      { compiler_path: compiler.packageDir, compiler_version: compiler.version },
    );
  }
  return choice;
}
/** The `typescript` package that typescript-language-server at `command` depends on, as Node finds it from its package. */
function bundledTypescript(command: string): string {
  let dir = dirname(realOr(command));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  const found = dependencyFolder("typescript", dir);
  if (found === null)
    throw new BridgeError(
      "ServerStartFailed",
      `typescript-language-server at ${command} finds no typescript package beside it; name the tsserver to drive in initialization_options.tsserver.path`,
      {},
    );
  return found;
}
