import { findProjectRoots, type ProjectKind, type ProjectRootsFinder, type RootMarkers } from "../config/project-roots.js";
import { restrictedMode } from "../config/restricted-mode.js";
import type { AdapterName, ResolvedServer, ToolchainChoice } from "../config/types.js";
import type { AdapterFactory } from "../lsp/server-adapter.js";
import { baconLsAdapter } from "./bacon-ls/adapter.js";
import { cargoCoverage } from "./bacon-ls/cargo-coverage.js";
import { bashAdapter } from "./bash/adapter.js";
import { biomeAdapter } from "./biome/adapter.js";
import { cclsAdapter } from "./ccls/adapter.js";
import { goplsAdapter } from "./gopls/adapter.js";
import { pythonNativeAdapter } from "./python/python-native.js";
import { RESTRICTED_ENVIRONMENT_LAUNCH } from "./python/environment-choice.js";
import { pyreflyAdapter } from "./python/pyrefly.js";
import { PYTHON_ROOT_MARKERS } from "./python/root-markers.js";
import { rustAnalyzerAdapter } from "./rust-analyzer/adapter.js";
import { CARGO_ROOT_MARKERS } from "./rust-analyzer/cargo-roots.js";
import { standardAdapter } from "./standard.js";
import { yamlAdapter } from "./yaml/adapter.js";
import { checkoutCodeIn, judgedRootByRoot } from "./checkout-code.js";
import type { AdapterCoverage, UncheckedFiles } from "./coverage.js";
import {
  type AdapterLaunch,
  answeringClauseWith,
  answeringCommentWith,
  launchWith,
  type ServerLaunch,
  type ToolchainLookups,
  type WorkspacePlace,
} from "./launch.js";
import {
  describeTsserverChoice,
  describeTypescriptChoice,
  tsserverEntryLaunch,
  tsserverToolchain,
  typescriptLaunch,
  typescriptToolchain,
} from "./typescript/launch.js";
import { typescriptAdapter } from "./typescript/native-adapter.js";
import { TYPESCRIPT_ROOT_MARKERS } from "./typescript/root-markers.js";
import { tsserverAdapter } from "./typescript/tsserver-adapter.js";
import { TSSERVER_REQUEST } from "./typescript/tsserver-diagnostics.js";

// The registry of the languages: the one way into src/languages/. Each folder beside this file
// holds one server family's ways beyond the LSP; the rest of the bridge asks for them here, by a
// server's adapter name, and never imports a language's folder.

export type { ServerLaunch, ToolchainLookups, WorkspacePlace } from "./launch.js";
export { toolchainLookups } from "./launch.js";
export { checkoutCodeIn } from "./checkout-code.js";
export type { UncheckedFiles } from "./coverage.js";

/**
 * Every adapter, by the name a profile's `adapter` key gives it: exactly the schema's names
 * (`ADAPTER_NAMES`; the compiler holds the two equal, a name missing or extra is a type error). A
 * server whose profile names none is "standard".
 */
export const ADAPTERS = {
  standard: standardAdapter,
  "bacon-ls": baconLsAdapter,
  bash: bashAdapter,
  biome: biomeAdapter,
  ccls: cclsAdapter,
  gopls: goplsAdapter,
  "python-native": pythonNativeAdapter,
  pyrefly: pyreflyAdapter,
  "rust-analyzer": rustAnalyzerAdapter,
  typescript: typescriptAdapter,
  tsserver: tsserverAdapter,
  yaml: yamlAdapter,
} as const satisfies Record<AdapterName, AdapterFactory>;

/**
 * The adapters that choose what a workspace runs: the program (`typescript`: the compiler the
 * workspace may bring), or the compiler a program of the entry's drives (`tsserver`); every other
 * server runs as its entry says.
 */
const ADAPTER_LAUNCHES = {
  typescript: { launch: typescriptLaunch, describe: describeTypescriptChoice, toolchain: typescriptToolchain },
  tsserver: { launch: tsserverEntryLaunch, describe: describeTsserverChoice, toolchain: tsserverToolchain },
} as const satisfies Partial<Record<AdapterName, AdapterLaunch>>;

/**
 * The adapters whose servers cannot answer some files of a workspace, by its layout alone (see
 * `coverage.ts`); every other server answers every file it claims.
 */
const ADAPTER_COVERAGE = {
  "bacon-ls": (root) => cargoCoverage(root, (at) => findProjectRoots(at, CARGO_ROOT_MARKERS)),
} as const satisfies Partial<Record<AdapterName, AdapterCoverage>>;

/**
 * What makes a folder a project root of each kind a profile's `projects` names, as the language
 * that reads such roots says it: the config knows the kinds, never their markers.
 */
export const ROOT_MARKERS = {
  ...PYTHON_ROOT_MARKERS,
  cargo: CARGO_ROOT_MARKERS,
  typescript: TYPESCRIPT_ROOT_MARKERS,
} as const satisfies Record<ProjectKind, RootMarkers>;

/** The project roots of `kind` under `root`, relative to it and sorted (`findProjectRoots` by the kind's markers). */
export const projectRootsIn: ProjectRootsFinder = (root, kind) => findProjectRoots(root, ROOT_MARKERS[kind]);

/**
 * The adapter whose server the commands an `initialize` answer advertises show, or null: only
 * typescript-language-server advertises tsserver's passthrough, wherever its command comes from.
 */
export function adapterAdvertised(commands: readonly string[]): AdapterName | null {
  return commands.includes(TSSERVER_REQUEST) ? "tsserver" : null;
}

/**
 * The launch of a session of `server` in `workspace`: its adapter's choice for the project folder
 * the session's toolchain was chosen from (the root for the configured entry), else the entry as
 * configured.
 */
export function launchFor(server: ResolvedServer, workspace: WorkspacePlace): ServerLaunch {
  return launchWith(chooserOf(server), server, workspace);
}

/**
 * The toolchain that answers `file` (absolute) under `server`, for a server whose adapter answers
 * each project with the project's own; null for a server that runs as configured.
 */
export function toolchainFor(server: ResolvedServer, workspace: WorkspacePlace, file: string, lookups: ToolchainLookups): ToolchainChoice | null {
  return chooserOf(server)?.toolchain(server, workspace, file, lookups) ?? null;
}

/**
 * "; typescript answers with TypeScript 7.0.2 (pinned)" for the config line: for each toolchain
 * of the workspace, the folders it answers (`folders`: project folders relative to the root, ""
 * the root); null for a server that runs as configured.
 */
export function answeringClause(server: ResolvedServer, workspace: WorkspacePlace, folders: readonly string[]): string | null {
  const chooser = adapterChooserOf(server);
  return chooser ? answeringClauseWith(chooser, server, workspace, folders) : null;
}

/**
 * The same as a comment of `init`'s file, for the server `name` of a profile (its `command`
 * relative to lspmcp's package) in a workspace at `root` whose project folders are `folders`; null for a server that
 * runs as configured.
 */
export function answeringComment(name: string, adapter: AdapterName, command: string, root: string, folders: readonly string[]): string | null {
  const chooser = launchOf(adapter);
  return chooser ? answeringCommentWith(chooser, name, command, root, folders) : null;
}

/**
 * The files of a workspace `server` cannot check, as its adapter sees them from the workspace's
 * layout, and in restricted mode every file when the server would run the checkout's own code
 * there; null when it can check every file. The diagnostics runner lists each such file as not
 * checked with the reason, never asks the server of it, and starts no session for none.
 */
export async function uncheckedFiles(
  server: Pick<ResolvedServer, "name" | "adapter" | "checkout_code" | "projects">,
  workspaceRoot: string,
): Promise<UncheckedFiles | null> {
  const restricted = restrictedMode() ? await checkoutCodeIn(server, workspaceRoot) : null;
  if (restricted !== null) return () => restricted;
  const coverage = (ADAPTER_COVERAGE as Partial<Record<AdapterName, AdapterCoverage>>)[server.adapter];
  return coverage === undefined ? null : coverage(workspaceRoot);
}

/**
 * The launch chooser of an entry's adapter. An entry recognised as TypeScript 7's own server runs
 * that program as written: the chooser of profile "typescript" would run another compiler's
 * server in a workspace that has one.
 */
function adapterChooserOf(server: Pick<ResolvedServer, "adapter" | "adapter_chosen_by">): AdapterLaunch | undefined {
  const recognised = server.adapter_chosen_by.by === "package" || server.adapter_chosen_by.by === "started";
  if (recognised && server.adapter === "typescript") return undefined;
  return launchOf(server.adapter);
}

/**
 * The chooser of an entry's sessions: its adapter's, else, in restricted mode, for a server that
 * runs a Python environment's interpreter and is handed its configuration roots, the one that
 * refuses each root with an environment of its own (`python/environment-choice.ts`).
 */
function chooserOf(server: Pick<ResolvedServer, "adapter" | "adapter_chosen_by" | "checkout_code" | "projects">): AdapterLaunch | undefined {
  return adapterChooserOf(server) ?? (restrictedMode() && judgedRootByRoot(server) ? RESTRICTED_ENVIRONMENT_LAUNCH : undefined);
}

function launchOf(adapter: AdapterName): AdapterLaunch | undefined {
  return (ADAPTER_LAUNCHES as Partial<Record<AdapterName, AdapterLaunch>>)[adapter];
}
