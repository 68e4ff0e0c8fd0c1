import { realpath, stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import type { LanguageClaim, ResolvedWorkspace } from "./types.js";
import { normalizeExtension } from "./extensions.js";
import { problemAt, type ConfigProblem, type KeyPath } from "./problems.js";
import type { RawWorkspace } from "./schema.js";
import type { Salvaged } from "./salvage.js";

/** What a workspace needs to know about the configured servers. */
interface ServerClaims {
  /** Every name given to a `[[server]]`, valid or not (so a broken server is not also "unknown"). */
  readonly names: ReadonlySet<string>;
  /** Normalized claims per server name; absent when that server's languages are unknown. */
  readonly languages: ReadonlyMap<string, readonly LanguageClaim[]>;
}

/** One workspace after resolution, or null with the problems that stopped it. */
interface WorkspaceOutcome {
  readonly workspace: ResolvedWorkspace | null;
  readonly problems: ConfigProblem[];
}

/**
 * Resolves `[[workspace]]` number `index`: its root (against `configDir`, symlinks resolved, an
 * existing directory), its server references, its exclude patterns, and the extension routing —
 * an extension claimed by two or more of its servers needs a `default_server` entry naming one of
 * them. Never throws; every problem is returned with its key path.
 */
export async function resolveWorkspace(index: number, raw: Salvaged<RawWorkspace>, configDir: string, claims: ServerClaims): Promise<WorkspaceOutcome> {
  const base: KeyPath = ["workspace", index];
  const { data } = raw;
  const problems: ConfigProblem[] = [];

  const root = data.root === undefined ? null : await resolveRoot(resolve(configDir, data.root), base, problems);

  const servers: string[] = [];
  (data.servers ?? []).forEach((name, i) => {
    if (!claims.names.has(name)) problems.push(problemAt(base, ["servers", i], `unknown server "${name}"`));
    else if (servers.includes(name)) problems.push(problemAt(base, ["servers", i], `server "${name}" is listed twice`));
    else servers.push(name);
  });

  (data.exclude ?? []).forEach((pattern, i) => {
    if (isAbsolute(pattern) || pattern.split("/").includes("..")) {
      problems.push(problemAt(base, ["exclude", i], `"${pattern}" must be relative to the workspace root and stay inside it`));
    }
  });

  const claimed = claimsOf(servers, claims);
  const routing: RoutingContext = { servers, claimed, claims, base, problems };
  const defaultServer = checkRouting(data.default_server ?? {}, routing);
  const diagnosticsServer = checkDiagnosticsOwners(data.diagnostics_server ?? {}, routing);

  if (problems.length > 0 || data.name === undefined || root === null) return { workspace: null, problems };
  const workspace: ResolvedWorkspace = {
    name: data.name,
    root,
    servers,
    default_server: defaultServer,
    diagnostics_server: diagnosticsServer,
    exclude: data.exclude ?? [],
  };
  return { workspace, problems };
}

async function resolveRoot(path: string, base: KeyPath, problems: ConfigProblem[]): Promise<string | null> {
  const real = await realpath(path).catch(() => null);
  if (real === null) {
    problems.push(problemAt(base, ["root"], `directory does not exist: ${path}`));
    return null;
  }
  if (!(await stat(real)).isDirectory()) {
    problems.push(problemAt(base, ["root"], `not a directory: ${path}`));
    return null;
  }
  return real;
}

/** Who claims what among a workspace's servers: claim key → server names, and which keys are file names. */
interface Claimed {
  readonly claimants: ReadonlyMap<string, readonly string[]>;
  readonly filenames: ReadonlySet<string>;
}

function claimsOf(servers: readonly string[], claims: ServerClaims): Claimed {
  const claimants = new Map<string, string[]>();
  const filenames = new Set<string>();
  for (const name of servers) {
    for (const language of claims.languages.get(name) ?? []) {
      for (const key of [...language.extensions, ...language.filenames]) claimants.set(key, [...(claimants.get(key) ?? []), name]);
      for (const filename of language.filenames) filenames.add(filename);
    }
  }
  return { claimants, filenames };
}

/** What a routing table is checked against: the workspace's servers and their claims; problems are added to `problems`. */
interface RoutingContext {
  readonly servers: readonly string[];
  readonly claimed: Claimed;
  readonly claims: ServerClaims;
  readonly base: KeyPath;
  readonly problems: ConfigProblem[];
}

/**
 * Checks one routing table (`default_server` or `diagnostics_server`) entry by entry and returns it
 * normalized. A key is a file name when one of the workspace's servers claims it as such
 * ("Dockerfile"), else an extension. Each entry must name one of the workspace's servers that
 * claims that key.
 */
function checkEntries(
  table: "default_server" | "diagnostics_server",
  entries: Readonly<Record<string, string>>,
  { servers, claimed: { claimants, filenames }, claims, base, problems }: RoutingContext,
): Record<string, string> {
  const chosen: Record<string, string> = {};
  for (const [key, name] of Object.entries(entries)) {
    const at = [table, key];
    const claimKey = filenames.has(key) ? key : normalizeExtension(key);
    if (claimKey === null) problems.push(problemAt(base, at, `"${key}" is not a file extension such as ".ts" nor a claimed file name`));
    else if (claimKey in chosen) problems.push(problemAt(base, at, `"${claimKey}" is chosen twice`));
    else if (!servers.includes(name)) problems.push(problemAt(base, at, `"${name}" is not one of this workspace's servers`));
    else if (claims.languages.has(name) && !(claimants.get(claimKey) ?? []).includes(name)) {
      problems.push(problemAt(base, at, `server "${name}" does not claim "${claimKey}"`));
    } else chosen[claimKey] = name;
  }
  return chosen;
}

/**
 * Checks `default_server`: its entries, and that each extension or file name claimed more than
 * once has one.
 */
function checkRouting(entries: Readonly<Record<string, string>>, context: RoutingContext): Record<string, string> {
  const { claimed, base, problems } = context;
  const normalize = (key: string): string | null => (claimed.filenames.has(key) ? key : normalizeExtension(key));
  const chosen = checkEntries("default_server", entries, context);
  for (const [claimKey, names] of claimed.claimants) {
    if (names.length > 1 && !(claimKey in chosen) && !Object.keys(entries).some((key) => normalize(key) === claimKey)) {
      problems.push(problemAt(base, ["default_server", claimKey], `"${claimKey}" is claimed by ${names.map((n) => `"${n}"`).join(" and ")}; choose one here`));
    }
  }
  return chosen;
}

/**
 * Checks `diagnostics_server`: its entries, each for a key that another of the workspace's
 * servers claims too (a key only one server claims has no one else to keep out, and an entry for
 * it is a mistake about which servers the workspace has).
 */
function checkDiagnosticsOwners(entries: Readonly<Record<string, string>>, context: RoutingContext): Record<string, string> {
  const { claimed, claims, base, problems } = context;
  const chosen = checkEntries("diagnostics_server", entries, context);
  for (const [claimKey, name] of Object.entries(chosen)) {
    const names = claimed.claimants.get(claimKey) ?? [];
    if (names.length < 2 && claims.languages.has(name)) {
      problems.push(
        problemAt(
          base,
          ["diagnostics_server", claimKey],
          `"${claimKey}" is claimed by "${name}" alone; diagnostics_server chooses one of several servers that claim it`,
        ),
      );
      delete chosen[claimKey];
    }
  }
  return chosen;
}
