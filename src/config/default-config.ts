import { BridgeError } from "../contract/errors.js";
import { planDefault, type DefaultPlan } from "./default-plan.js";
import { resolveDocument, type LoadOptions } from "./load-config.js";
import { packageRoot } from "./package-root.js";
import type { ProjectRootsFinder } from "./project-roots.js";
import type { ChosenServer, FoundProjects, ResolvedConfig } from "./types.js";

/**
 * The embedded default for `root` as a bridge.toml document: one workspace at `root` ("."), each
 * planned profile by name with its shipped pin, default limits.
 */
function defaultDocument(plan: DefaultPlan): Record<string, unknown> {
  const workspace: Record<string, unknown> = { name: plan.workspace, root: ".", servers: plan.servers.map((server) => server.name) };
  if (Object.keys(plan.defaultServer).length > 0) workspace.default_server = plan.defaultServer;
  return {
    server: plan.servers.map((server) => ({ name: server.name, profile: server.name })),
    workspace: [workspace],
  };
}

/**
 * Plans the embedded default for `root` and resolves it exactly as a bridge.toml would be, so it
 * is held to the same rules. Rejects with ConfigInvalid when no shipped profile's language occurs
 * in `root` (or every such server is missing), saying so and naming `lspmcp init`.
 */
export async function loadDefaultConfig(root: string, projectRoots: ProjectRootsFinder, options: LoadOptions = {}): Promise<ResolvedConfig> {
  const plan = await planDefault(root, {
    packageRoot: options.packageRoot ?? packageRoot(),
    searchPath: options.searchPath ?? process.env.PATH ?? "",
    projectRoots,
  });
  if (plan.servers.length === 0) {
    const missing = plan.omitted.map((omitted) => `${omitted.server} (${omitted.reason}; ${omitted.install})`);
    const message =
      `no bridge.toml or .lspmcp.toml found, and the embedded default found no language it can serve in ${root}` +
      (missing.length > 0 ? `: servers missing: ${missing.join("; ")}` : "") +
      "; write a config with `lspmcp init`, or pass --config FILE";
    throw new BridgeError("ConfigInvalid", message, { path: root, problems: [] });
  }
  return resolveDocument(
    defaultDocument(plan),
    { configPath: root, configDir: root, source: { kind: "default", root }, omitted: plan.omitted, chosen: chosenServers(plan), projects: foundProjects(plan) },
    options,
  );
}

/** The project roots found for the planned servers that take them. */
function foundProjects(plan: DefaultPlan): FoundProjects[] {
  return plan.servers.flatMap((server) => (server.projects === null ? [] : [{ server: server.name, roots: server.projects }]));
}

/** The planned servers chosen for a reason (what configures them), as the config carries them. */
function chosenServers(plan: DefaultPlan): ChosenServer[] {
  return plan.servers.flatMap((server) => (server.reason === null ? [] : [{ server: server.name, reason: server.reason }]));
}
