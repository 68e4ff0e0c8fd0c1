import { isAbsolute, join, relative } from "node:path";
import { describeRoots } from "../config/config-source.js";
import { locateDependencyPath } from "../config/package-dependency.js";
import { packageRoot } from "../config/package-root.js";
import type { AdapterName, ResolvedServer, ResolvedWorkspace, ToolchainChoice } from "../config/types.js";
import type { ToolchainReport } from "../lsp/project-model.js";

/**
 * What one session starts: the server entry as configured, or — for a profile whose compiler the
 * workspace may bring (its adapter chooses) — the server that compiler needs, with the version it
 * must report. Everything else of the entry (languages, env, caps) stays as configured.
 */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** What the started server must report (its serverInfo.version, or `versionCommand`'s output). */
  readonly version: string;
  readonly versionCommand: readonly string[] | null;
  readonly initializationOptions: Readonly<Record<string, unknown>>;
  readonly settings: Readonly<Record<string, unknown>>;
  /** The toolchain that answers, when the server's answers are a toolchain's the workspace may bring; else null. */
  readonly toolchain: ToolchainReport | null;
  /** The adapter of the server that runs: the entry's, or the one its compiler needs. */
  readonly adapter: AdapterName;
}

/**
 * Which compiler would answer a project folder, in words, and its package folder (null: the
 * pinned one); or why the project's own may not run, or why none can start.
 */
export type AnsweringChoice =
  | { readonly answers: string; readonly own: string | null }
  | { readonly refused: string; readonly own: string }
  | { readonly error: string };

/** Where a workspace lies: its root, and the checkout its own code is searched in (`checkoutTop`). */
export type WorkspacePlace = Pick<ResolvedWorkspace, "root" | "checkout">;

/** How an adapter chooses the program that runs for each project of a workspace, and says which it chose. */
export interface AdapterLaunch {
  /** The launch for the project folder `from`; throws `ServerStartFailed` when the project's own compiler cannot answer or may not run. */
  launch(server: ResolvedServer, workspace: WorkspacePlace, from: string): ServerLaunch;
  describe(server: Pick<ResolvedServer, "name" | "command" | "initialization_options">, workspace: WorkspacePlace, from: string): AnsweringChoice;
  /** The toolchain that answers the file `file` (absolute), with what one caller learnt already in `lookups`. */
  toolchain(
    server: Pick<ResolvedServer, "name" | "command" | "initialization_options" | "projects">,
    workspace: WorkspacePlace,
    file: string,
    lookups: ToolchainLookups,
  ): ToolchainChoice;
}

/**
 * What one caller learns of a workspace's folders while it resolves many files (a discovery):
 * each folder's nearest project config, and each project folder's toolchain.
 */
export interface ToolchainLookups {
  readonly configs: Map<string, string | null>;
  readonly choices: Map<string, ToolchainChoice>;
}

/** Lookups for one caller: a later one sees the disk afresh (an install since). */
export function toolchainLookups(): ToolchainLookups {
  return { configs: new Map(), choices: new Map() };
}

/**
 * The launch of a session of `server` in `workspace`: `chooser`'s choice (its adapter's) for the
 * project folder the session's toolchain was chosen from (the root for the configured entry),
 * else, with no chooser, the entry as configured.
 */
export function launchWith(chooser: AdapterLaunch | undefined, server: ResolvedServer, workspace: WorkspacePlace): ServerLaunch {
  if (chooser) return chooser.launch(server, workspace, server.toolchain?.from ?? workspace.root);
  return {
    command: server.command,
    args: server.args,
    version: server.version,
    versionCommand: server.version_command,
    initializationOptions: server.initialization_options,
    settings: server.settings,
    toolchain: null,
    adapter: server.adapter,
  };
}

/**
 * "; typescript answers with TypeScript 7.0.2 (pinned)" for the config line: for each toolchain
 * `chooser` picks in the workspace, the folders it answers (`folders`: project folders relative
 * to the root, "" the root).
 */
export function answeringClauseWith(chooser: AdapterLaunch, server: ResolvedServer, workspace: WorkspacePlace, folders: readonly string[]): string {
  const groups = byChoice(chooser, server, workspace, folders);
  const parts = groups.map(({ choice, folders: answered }) => {
    const where = groups.length > 1 ? ` for ${describeRoots(answered)}` : "";
    if ("error" in choice) return `cannot start${where}: ${choice.error}`;
    if ("refused" in choice) return `checks nothing${where}: ${choice.refused}`;
    return `answers${where} with ${choice.answers} (${choice.own === null ? "pinned" : `its own: ${relativeTo(workspace.root, choice.own)}`})`;
  });
  return parts.join("; ");
}

/**
 * The same as a comment of `init`'s file, for the server `name` of a profile (its `command`
 * relative to lspmcp's package, as profiles name their npm servers) whose adapter chooses with
 * `chooser`, in a workspace at `root` whose project folders are `folders`.
 */
export function answeringCommentWith(chooser: AdapterLaunch, name: string, command: string, root: string, folders: readonly string[]): string {
  const located = locateDependencyPath(command, packageRoot());
  const server = { name, command: located?.ok ? located.path : join(packageRoot(), command), initialization_options: {} };
  const lines = byChoice(chooser, server, { root }, folders).map(({ choice, folders: answered }) => {
    const where = describeRoots(answered);
    if ("error" in choice) return `# ${where}: it cannot start here: ${choice.error}`;
    if ("refused" in choice) return `# ${where}: not checked: ${choice.refused}`;
    return choice.own === null
      ? `# ${where}: ${choice.answers}, pinned (no node_modules/typescript in the project's folder or above it in the checkout).`
      : `# ${where}: the project's own ${choice.answers} (${relativeTo(root, choice.own)}).`;
  });
  return ["# Each project is answered by the TypeScript that Node finds from its folder, else the pinned version below:", ...lines].join("\n");
}

/** The root and the project folders (relative to it) grouped by the compiler that answers them, the root's first. */
function byChoice(
  chooser: AdapterLaunch,
  server: Pick<ResolvedServer, "name" | "command" | "initialization_options">,
  workspace: WorkspacePlace,
  folders: readonly string[],
): { choice: AnsweringChoice; folders: string[] }[] {
  const groups = new Map<string, { choice: AnsweringChoice; folders: string[] }>();
  // The root first: what its projects do not hold (a script in a folder of its own) is answered from there.
  for (const folder of ["", ...folders.filter((folder) => folder !== "")]) {
    const choice = chooser.describe(server, workspace, join(workspace.root, folder));
    const key = JSON.stringify(choice);
    const group = groups.get(key);
    if (group) group.folders.push(folder);
    else groups.set(key, { choice, folders: [folder] });
  }
  return [...groups.values()];
}

/** A path relative to `root` when it lies inside it, else as it is. */
function relativeTo(root: string, path: string): string {
  const inside = relative(root, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}
