import { resolve } from "node:path";
import { loadProfile } from "./profiles.js";
import { expandToolCache } from "./tool-cache.js";

/** One key of a `[[server]]` by which a configuration chooses what runs, beyond its shipped profile. */
export interface ProgramKey {
  /** Its TOML key path: `server[0].command`, `server[1].env.PATH`. */
  readonly path: string;
  /** Its value as written, in JSON (shortened), or `(removed)` for a profile's entry the file drops. */
  readonly value: string;
}

/**
 * The keys by which a `[[server]]` chooses what runs: the program and its arguments, the version
 * command, the environment (PATH, LD_PRELOAD, NODE_OPTIONS, RUSTC_WRAPPER, GOFLAGS=-toolexec...
 * all change what runs), the adapter (which may start the workspace's own compiler) and what is
 * handed to the server (rust-analyzer's check.overrideCommand, typescript-language-server's
 * tsserver.path, pyright's python.pythonPath name programs the server then runs). The other keys
 * (name, profile, version, languages, position_encoding, inherit_env, max_rss_mb,
 * settle_quiet_ms) run nothing new: inherit_env passes on only what the user's own environment
 * holds.
 */
const PROGRAM_KEYS = ["command", "args", "version_command", "env", "adapter", "initialization_options", "settings"] as const;

/** Keys whose value is a table, compared entry by entry so that the one that differs is named. */
const TABLE_KEYS: ReadonlySet<string> = new Set(["env", "initialization_options", "settings"]);

/** What a key the profile leaves out amounts to (SERVER_DEFAULTS, and the standard adapter). */
const UNSET: Readonly<Record<string, unknown>> = { args: [], adapter: "standard" };

/** Longest value shown; a settings table can be long, and the key path already says where it is. */
const MAX_VALUE_CHARS = 160;

/**
 * Every key of the parsed bridge.toml `document` (in `configDir`) that would run a program other
 * than the shipped profiles' own pinned executables, as their profiles run them: a key a
 * `[[server]]` sets to something other than its profile's value (every such key of a server
 * without a profile). Empty for a configuration that only picks shipped profiles. Paths compare
 * as the loader resolves them: the file's relative to `configDir`, the profile's to the package root.
 */
export async function programKeys(document: Record<string, unknown>, configDir: string, packageRoot: string): Promise<ProgramKey[]> {
  const servers = Array.isArray(document.server) ? document.server : [];
  const keys = await Promise.all(servers.map((server: unknown, i) => serverProgramKeys(server, i, configDir, packageRoot)));
  return [...keys.flat(), ...ownFilesKeys(document)];
}

/**
 * `[shared] lease_dir`, which moves lspmcp's own files (leases, the shared servers' log, the HTTP
 * token, snapshots): a checkout that could choose it could have them written into itself, where
 * a file it commits under their names (a link, a token of its choosing) would stand in for them.
 */
function ownFilesKeys(document: Record<string, unknown>): ProgramKey[] {
  const shared = document.shared;
  if (!isTable(shared) || shared.lease_dir === undefined) return [];
  return [{ path: "shared.lease_dir", value: shown(shared.lease_dir) }];
}

async function serverProgramKeys(server: unknown, index: number, configDir: string, packageRoot: string): Promise<ProgramKey[]> {
  if (!isTable(server)) return [];
  const loaded = typeof server.profile === "string" ? await loadProfile(packageRoot, server.profile) : null;
  const profile: Record<string, unknown> = loaded?.ok ? loaded.profile : {};
  const keys: ProgramKey[] = [];
  for (const key of PROGRAM_KEYS) {
    const own = server[key];
    const theirs = profile[key] ?? UNSET[key];
    const at = `server[${index}].${key}`;
    if (own === undefined) continue;
    if (TABLE_KEYS.has(key) && isTable(own)) keys.push(...tableDifferences(at, own, isTable(theirs) ? theirs : {}));
    else if (!sameProgram(key, own, theirs, configDir, packageRoot)) keys.push({ path: at, value: shown(own) });
  }
  return keys;
}

/** The entries of `own` that differ from the profile's table, which `own` replaces as a whole. */
function tableDifferences(at: string, own: Record<string, unknown>, theirs: Record<string, unknown>): ProgramKey[] {
  const names = [...new Set([...Object.keys(own), ...Object.keys(theirs)])];
  return names
    .filter((name) => stableJson(own[name]) !== stableJson(theirs[name]))
    .map((name) => ({ path: `${at}.${name}`, value: name in own ? shown(own[name]) : "(removed)" }));
}

function sameProgram(key: string, own: unknown, theirs: unknown, configDir: string, packageRoot: string): boolean {
  if (key === "command" && typeof own === "string" && typeof theirs === "string") {
    return programLocation(own, configDir) === programLocation(theirs, packageRoot);
  }
  if (key === "version_command" && Array.isArray(own) && Array.isArray(theirs) && own.length > 0 && theirs.length > 0) {
    const [ownHead, ...ownRest] = own as string[];
    const [theirHead, ...theirRest] = theirs as string[];
    return programLocation(ownHead!, configDir) === programLocation(theirHead!, packageRoot) && stableJson(ownRest) === stableJson(theirRest);
  }
  return theirs !== undefined && stableJson(own) === stableJson(theirs);
}

/**
 * Where a command names its program, as the loader finds it: a bare name is looked up on the
 * bridge's PATH (the same lookup for both), anything else is a path from its file's folder.
 */
function programLocation(command: string, baseDir: string): string {
  const expanded = expandToolCache(command);
  return expanded.includes("/") ? resolve(baseDir, expanded) : expanded;
}

/** JSON with object keys sorted: two tables equal as TOML are equal here whatever their order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isTable(inner) && !(inner instanceof Date) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > MAX_VALUE_CHARS ? `${json.slice(0, MAX_VALUE_CHARS - 1)}…` : json;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
