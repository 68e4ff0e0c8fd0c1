import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { gitTopLevel } from "./discover-config.js";
import type { ChosenServer, FoundProjects, ConfigSource, LanguageClaim, OmittedServer, ResolvedConfig, ResolvedServer, ResolvedWorkspace } from "./types.js";
import { packageRoot } from "./package-root.js";
import { configInvalid, PARSE_OPTIONS, problemAt, problemsFromIssues, type ConfigProblem } from "./problems.js";
import { readToml } from "./read-toml.js";
import { resolveServer, type ResolveContext } from "./resolve-server.js";
import { resolveWorkspace } from "./resolve-workspace.js";
import { salvage } from "./salvage.js";
import { ConfigSchema, ServerSchema, WorkspaceSchema } from "./schema.js";

/** Test seams; production callers pass nothing. */
export interface LoadOptions {
  /** Where `servers/*.toml` live and profile paths resolve. Default: the lspmcp package root. */
  readonly packageRoot?: string;
  /** PATH for bare command names. Default: the bridge's own `process.env.PATH`. */
  readonly searchPath?: string;
}

/**
 * Loads a bridge.toml (CONTRACT §3): parses it, validates it against the schema, merges profiles,
 * applies defaults, resolves every path to an absolute one and checks executables, roots, names
 * and extension routing. Resolves to a config the rest of the bridge can trust; otherwise rejects
 * with `BridgeError("ConfigInvalid")` whose `details.problems` lists every problem found, each with
 * its TOML key path (see {@link ConfigProblem}), sorted by path.
 */
export async function loadConfig(path: string, options: LoadOptions = {}): Promise<ResolvedConfig> {
  return (await loadConfigFile(path, options)).config;
}

/** A loaded bridge.toml with the text it was read from and that text parsed, as written. */
interface LoadedConfigFile {
  readonly config: ResolvedConfig;
  /** The file's content as read, once: what its trust is judged on. */
  readonly text: string;
  /** The parsed document before profiles were merged: which keys the file itself sets. */
  readonly document: Record<string, unknown>;
}

/** {@link loadConfig}, also returning what was read, so that nothing judges a later read of the file. */
export async function loadConfigFile(path: string, options: LoadOptions = {}): Promise<LoadedConfigFile> {
  const configPath = resolve(path);
  const toml = await readToml(configPath);
  if (!toml.ok) throw configInvalid(configPath, [toml.problem]);
  const config = await resolveDocument(
    toml.value,
    { configPath, configDir: dirname(configPath), source: { kind: "file", path: configPath }, omitted: [], chosen: [], projects: [] },
    options,
  );
  return { config, text: toml.text, document: toml.value };
}

/** What a parsed document is resolved as: its name, the base of its relative paths, its origin. */
interface DocumentOrigin {
  readonly configPath: string;
  readonly configDir: string;
  readonly source: ConfigSource;
  readonly omitted: readonly OmittedServer[];
  readonly chosen: readonly ChosenServer[];
  readonly projects: readonly FoundProjects[];
}

/**
 * Validates and resolves a parsed bridge.toml document exactly as {@link loadConfig} does (the
 * embedded default goes through here too, so it is held to the same rules as a file).
 */
export async function resolveDocument(document: Record<string, unknown>, origin: DocumentOrigin, options: LoadOptions = {}): Promise<ResolvedConfig> {
  const { configPath } = origin;
  const parsed = ConfigSchema.safeParse(document, PARSE_OPTIONS);
  const problems: ConfigProblem[] = parsed.success ? [] : problemsFromIssues([], parsed.error.issues);

  const context: ResolveContext = {
    configDir: origin.configDir,
    packageRoot: options.packageRoot ?? packageRoot(),
    searchPath: options.searchPath ?? process.env.PATH ?? "",
  };

  const rawServers = arrayOf(document.server).map((raw) => salvage(ServerSchema, raw));
  const outcomes = await Promise.all(rawServers.map((raw, i) => (raw === null ? null : resolveServer(i, raw, context))));
  outcomes.forEach((outcome) => problems.push(...(outcome?.problems ?? [])));
  const serverNames = rawServers.map((raw) => raw?.data.name);
  problems.push(...duplicates("server", serverNames));

  const languages = new Map<string, readonly LanguageClaim[]>();
  serverNames.forEach((name, i) => {
    const claimed = outcomes[i]?.languages;
    if (name !== undefined && claimed && !languages.has(name)) languages.set(name, claimed);
  });
  // Any string name counts as defined, even an invalid one, so a workspace using it is not also
  // told that the server is unknown.
  const definedNames = arrayOf(document.server).map((raw) => (raw as { name?: unknown } | null)?.name);
  const claims = { names: new Set(definedNames.filter((name): name is string => typeof name === "string")), languages };

  const rawWorkspaces = arrayOf(document.workspace).map((raw) => salvage(WorkspaceSchema, raw));
  const workspaceOutcomes = await Promise.all(rawWorkspaces.map((raw, i) => (raw === null ? null : resolveWorkspace(i, raw, context.configDir, claims))));
  workspaceOutcomes.forEach((outcome) => problems.push(...(outcome?.problems ?? [])));
  problems.push(
    ...duplicates(
      "workspace",
      rawWorkspaces.map((raw) => raw?.data.name),
    ),
  );

  const leaseDir = parsed.success && parsed.data.shared.lease_dir !== undefined ? resolve(context.configDir, parsed.data.shared.lease_dir) : null;
  if (leaseDir !== null) problems.push(...leaseDirProblems(leaseDir, context.configDir));

  if (problems.length > 0 || !parsed.success) throw configInvalid(configPath, problems);
  return {
    configPath,
    source: origin.source,
    omitted: origin.omitted,
    chosen: origin.chosen,
    projects: origin.projects,
    bridge: parsed.data.bridge,
    shared: {
      ...parsed.data.shared,
      lease_dir: leaseDir,
    },
    // Both lists are complete here: any unresolved entry would have left a problem behind.
    servers: outcomes.map((outcome) => outcome?.server).filter((server): server is ResolvedServer => !!server),
    workspaces: workspaceOutcomes.map((outcome) => outcome?.workspace).filter((workspace): workspace is ResolvedWorkspace => !!workspace),
  };
}

/**
 * lspmcp writes none of its own files into a checkout (CONTRACT §2): a `lease_dir` inside the git
 * work tree that holds the config is refused, trusted or not, since a file committed there under
 * the name of one of lspmcp's (a symlink, a token) would stand in for it.
 */
function leaseDirProblems(leaseDir: string, configDir: string): ConfigProblem[] {
  const top = gitTopLevel(configDir);
  if (top === null) return [];
  if (!isWithin(leaseDir, top) && !isWithin(realOrSelf(leaseDir), realOrSelf(top))) return [];
  return [problemAt(["shared"], ["lease_dir"], `${leaseDir} is inside the checkout ${top}; lspmcp writes none of its own files into a checkout`)];
}

function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

// Symlinks resolved as far as the path exists: a link elsewhere that leads back into the checkout is inside it.
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The tables of an array-of-tables key; a wrong type there is already a schema problem. */
function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A problem at each repeated name, pointing back at its first use. */
function duplicates(section: "server" | "workspace", names: readonly (string | undefined)[]): ConfigProblem[] {
  return names.flatMap((name, i) => {
    const first = names.indexOf(name);
    return name === undefined || first === i
      ? []
      : [problemAt([section, i], ["name"], `duplicate ${section} name "${name}" (first used at ${section}[${first}])`)];
  });
}
