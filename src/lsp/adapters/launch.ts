import { join, relative } from "node:path";
import { locateDependencyPath } from "../../config/package-dependency.js";
import { packageRoot } from "../../config/package-root.js";
import type { AdapterName, ResolvedServer } from "../../config/types.js";
import { ADAPTER_LAUNCHES } from "./index.js";
import type { CompilerReport } from "./server-adapter.js";

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
  /** The compiler that answers, when the server's answers are a compiler's; else null. */
  readonly compiler: CompilerReport | null;
  /** The adapter of the server that runs: the entry's, or the one its compiler needs. */
  readonly adapter: AdapterName;
}

/** Which compiler would answer a workspace, in words, or why none can. */
export type AnsweringChoice = { readonly answers: string; readonly own: string | null } | { readonly error: string };

/** How an adapter chooses the program that runs for a workspace, and says which it chose. */
export interface AdapterLaunch {
  /** Throws `ServerStartFailed` when the workspace's own compiler cannot answer. */
  launch(server: ResolvedServer, workspaceRoot: string): ServerLaunch;
  describe(server: Pick<ResolvedServer, "command" | "initialization_options">, workspaceRoot: string): AnsweringChoice;
}

/** The launch of `server` for a workspace at `workspaceRoot`: its adapter's choice, else the entry as configured. */
export function launchFor(server: ResolvedServer, workspaceRoot: string): ServerLaunch {
  const chooser = chooserOf(server);
  if (chooser) return chooser.launch(server, workspaceRoot);
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

/** "; typescript answers with TypeScript 7.0.2 (pinned)" for the config line; null for a server that runs as configured. */
export function answeringClause(server: ResolvedServer, workspaceRoot: string): string | null {
  const choice = chooserOf(server)?.describe(server, workspaceRoot);
  if (!choice) return null;
  if ("error" in choice) return `cannot start: ${choice.error}`;
  return `answers with ${choice.answers} (${choice.own === null ? "pinned" : `the workspace's node_modules: ${choice.own}`})`;
}

/**
 * The same as a comment of `init`'s file, for a profile (its `command` relative to lspmcp's
 * package, as profiles name their npm servers); null for a server that runs as configured.
 */
export function answeringComment(adapter: AdapterName, command: string, root: string): string | null {
  const chooser = launchOf(adapter);
  if (!chooser) return null;
  const located = locateDependencyPath(command, packageRoot());
  const choice = chooser.describe({ command: located?.ok ? located.path : join(packageRoot(), command), initialization_options: {} }, root);
  if ("error" in choice) return `# It cannot start here: ${choice.error}`;
  return choice.own === null
    ? `# It answers with ${choice.answers}, pinned (no node_modules/typescript at or above the root).`
    : `# It answers with the workspace's own ${choice.answers} (${relative(root, choice.own) || choice.own}); without it, the pinned version below.`;
}

/**
 * The launch chooser of an entry's adapter. An entry recognised as TypeScript 7's own server runs
 * that program as written: the chooser of profile "typescript" would run
 * another compiler's server in a workspace that has one.
 */
function chooserOf(server: Pick<ResolvedServer, "adapter" | "adapter_chosen_by">): AdapterLaunch | undefined {
  const recognised = server.adapter_chosen_by.by === "package" || server.adapter_chosen_by.by === "started";
  if (recognised && server.adapter === "typescript") return undefined;
  return launchOf(server.adapter);
}

function launchOf(adapter: AdapterName): AdapterLaunch | undefined {
  return (ADAPTER_LAUNCHES as Partial<Record<AdapterName, AdapterLaunch>>)[adapter];
}
