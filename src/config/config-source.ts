import { resolve } from "node:path";
import { discoverConfig } from "./discover-config.js";
import type { ConfigSource, ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "./types.js";

/** The source a command uses: `--config FILE` when given, else what discovery finds from `cwd`. */
export function configSourceFor(configArg: string | null, cwd: string = process.cwd()): ConfigSource {
  return configArg === null ? discoverConfig(cwd) : { kind: "file", path: resolve(cwd, configArg) };
}

/** A server's compilers in words over a workspace's project folders (relative to its root): the adapters' `answeringClause`. */
export type Answering = (server: ResolvedServer, workspace: ResolvedWorkspace, folders: readonly string[]) => string | null;

/**
 * One line naming the configuration in use (CONTRACT §2): the file, or the embedded default with
 * the servers it chose and those it left out, why, and how to install them; and, for a server
 * that answers with a compiler each project may bring, which one answers which folders (CONTRACT
 * §3): `answering` says it of a server in a workspace (its adapter's words), null for one that
 * runs as configured.
 */
export function describeConfig(config: ResolvedConfig, answering: Answering): string {
  const source = config.source;
  const compilers = describeCompilers(config, answering);
  if (source.kind === "file") return `config: ${source.path}${compilers}`;
  const servers = config.servers.map((server) => server.name).join(", ");
  const chosen = config.chosen.map(({ server, reason }) => `; ${server}: ${reason}`).join("");
  const projects = config.projects
    .filter(({ roots }) => roots.length > 0)
    .map(({ server, roots }) => `; ${server} projects: ${describeRoots(roots)}`)
    .join("");
  const left = config.omitted.map((omitted) => `; left out ${omitted.server}: ${omitted.reason} (install: ${omitted.install})`).join("");
  return `config: embedded default for ${source.root} (no bridge.toml or .lspmcp.toml found): servers ${servers}${chosen}${compilers}${projects}${left}`;
}

/** Roots shown at most on the config line; the rest are counted. */
const SHOWN_ROOTS = 10;

/** "., packages/core, services/api"; past SHOWN_ROOTS, "… (50 in all)". */
export function describeRoots(roots: readonly string[]): string {
  const shown = roots.slice(0, SHOWN_ROOTS).map((root) => root || ".");
  return roots.length > SHOWN_ROOTS ? `${shown.join(", ")}, … (${roots.length} in all)` : shown.join(", ");
}

/**
 * "; typescript answers with TypeScript 7.0.2 (pinned)" for each workspace of each server whose
 * adapter chooses its compiler, over the project folders the embedded default found (the root
 * alone for a file's workspaces, whose projects are found at each session's start).
 */
function describeCompilers(config: ResolvedConfig, answering: Answering): string {
  const parts: string[] = [];
  for (const server of config.servers) {
    for (const workspace of config.workspaces) {
      if (!workspace.servers.includes(server.name)) continue;
      const found = config.source.kind === "default" ? (config.projects.find((projects) => projects.server === server.name)?.roots ?? []) : [];
      const clause = answering(server, workspace, found);
      if (clause === null) continue;
      const where = config.workspaces.length > 1 ? ` in ${workspace.name}` : "";
      parts.push(`; ${server.name}${where} ${clause}`);
    }
  }
  return parts.join("");
}
