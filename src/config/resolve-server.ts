import { knownByPackage } from "./known-servers.js";
import type { AdapterName, LanguageClaim, ResolvedServer } from "./types.js";
import { normalizeExtension } from "./extensions.js";
import { problemAt, type ConfigProblem, type KeyPath } from "./problems.js";
import { installHint } from "./install-hint.js";
import { loadProfile } from "./profiles.js";
import { resolveExecutable, resolveProfileExecutable } from "./resolve-executable.js";
import { expandToolCache } from "./tool-cache.js";
import { REQUIRED_SERVER_KEYS, SERVER_DEFAULTS, type RawProfile, type RawServer } from "./schema.js";
import type { Salvaged } from "./salvage.js";

/** Where relative paths resolve and which directories to search, for one load. */
export interface ResolveContext {
  /** Directory of the bridge.toml: base of paths set in it. */
  readonly configDir: string;
  /** The lspmcp package root: home of `servers/*.toml` and base of paths set in a profile. */
  readonly packageRoot: string;
  /** PATH used for bare command names. */
  readonly searchPath: string;
}

/** One server after resolution: `languages` is known even when other fields failed. */
interface ServerOutcome {
  readonly server: ResolvedServer | null;
  /** Normalized claims, or null when unknown (no valid languages anywhere). */
  readonly languages: readonly LanguageClaim[] | null;
  readonly problems: ConfigProblem[];
}

type Field = Exclude<keyof RawProfile, "install" | "default" | "checkout_code">;

/**
 * Resolves `[[server]]` number `index`: merges its profile (keys set in the server replace the
 * profile's, but for `settings` and `initialization_options`, laid over the profile's), applies defaults, resolves `command` and `version_command[0]` to absolute executables
 * (against the config directory, or for values from the profile the package root and
 * lspmcp's dependencies wherever Node finds them), and normalizes
 * extensions. Never throws; every problem is returned with its key path.
 */
export async function resolveServer(index: number, raw: Salvaged<RawServer>, context: ResolveContext): Promise<ServerOutcome> {
  const base: KeyPath = ["server", index];
  const own = raw.data;
  const problems: ConfigProblem[] = [];

  let profile: RawProfile = {};
  let profileFailed = raw.broken.has("profile");
  if (own.profile !== undefined) {
    const loaded = await loadProfile(context.packageRoot, own.profile);
    if (loaded.ok) profile = loaded.profile;
    else {
      profileFailed = true;
      problems.push(...loaded.problems.map((message) => problemAt(base, ["profile"], message)));
    }
  }

  // Which file set each field decides the base of its relative paths and the wording of problems.
  const fromProfile = (field: Field) => own[field] === undefined && profile[field] !== undefined;
  const pick = <F extends Field>(field: F): RawProfile[F] => (own[field] !== undefined ? own[field] : profile[field]);
  // A profile's `node_modules/...` is lspmcp's dependency, wherever the install put it; a path set
  // in the bridge.toml is just a path.
  const resolveFor = (field: Field, command: string) =>
    fromProfile(field)
      ? resolveProfileExecutable(command, context.packageRoot, context.searchPath)
      : resolveExecutable(command, context.configDir, context.searchPath);
  const origin = (field: Field) => (fromProfile(field) ? ` (from profile "${own.profile}")` : "");
  // A profile's missing server is named with the command that installs it.
  const missing = (field: Field, message: string) =>
    fromProfile(field) && own.profile !== undefined && profile.install !== undefined
      ? `${message} (from profile "${own.profile}"; install: ${installHint(own.profile, profile.install, profile.command)})`
      : message + origin(field);

  for (const field of REQUIRED_SERVER_KEYS) {
    if (pick(field) === undefined && !raw.broken.has(field) && !profileFailed) {
      const where = own.profile === undefined ? "" : ` (neither here nor in profile "${own.profile}")`;
      problems.push(problemAt(base, [field], `required${where}`));
    }
  }

  const command = pick("command");
  let commandPath: string | null = null;
  if (command !== undefined) {
    const resolved = await resolveFor("command", command);
    if (resolved.ok) commandPath = resolved.path;
    else problems.push(problemAt(base, ["command"], missing("command", resolved.message)));
  }

  const versionCommand = pick("version_command");
  let versionArgv: string[] | null = null;
  if (versionCommand !== undefined) {
    const [head, ...rest] = versionCommand as [string, ...string[]];
    const resolved = await resolveFor("version_command", head);
    // Its arguments may name the tool cache too (`cargo install --list --root {cache}/...`).
    if (resolved.ok) versionArgv = [resolved.path, ...rest.map((arg) => expandToolCache(arg))];
    // The same missing program is one problem, said at `command`.
    else if (head !== command || commandPath !== null) problems.push(problemAt(base, ["version_command", 0], missing("version_command", resolved.message)));
  }

  const rawLanguages = pick("languages");
  const languages = rawLanguages === undefined ? null : normalizeLanguages(rawLanguages, base, origin("languages"), problems);

  const version = pick("version");
  if (problems.length > 0 || own.name === undefined || commandPath === null || version === undefined || languages === null) {
    return { server: null, languages, problems };
  }
  const server: ResolvedServer = {
    name: own.name,
    command: commandPath,
    args: pick("args") ?? SERVER_DEFAULTS.args,
    version,
    version_command: versionArgv,
    languages,
    position_encoding: pick("position_encoding") ?? null,
    ...chooseAdapter(own.adapter, profile.adapter, own.profile, commandPath),
    projects: pick("projects") ?? null,
    // The profile's alone: a bridge.toml cannot say its server runs less of the checkout.
    checkout_code: profile.checkout_code ?? [],
    // A server names more than its profile, never fewer (CONTRACT §3): the toolchain's own
    // variables stay whatever else a [[server]] changes.
    inherit_env: [...new Set([...(profile.inherit_env ?? []), ...(own.inherit_env ?? [])])],
    // A value may name the tool cache as a command can (`{cache}/...`).
    env: Object.fromEntries(Object.entries(pick("env") ?? SERVER_DEFAULTS.env).map(([key, value]) => [key, expandToolCache(value)])),
    // A table set here is laid over its profile's, never in place of it: a key the server needs
    // (vscode-css-language-server reports nothing without its `css` section) stays when another is added.
    initialization_options: overlay(profile.initialization_options, own.initialization_options) ?? SERVER_DEFAULTS.initialization_options,
    settings: overlay(profile.settings, own.settings) ?? SERVER_DEFAULTS.settings,
    // 0 is how a [[server]] turns its profile's cap off.
    max_rss_mb: pick("max_rss_mb") || null,
    settle_quiet_ms: pick("settle_quiet_ms") ?? SERVER_DEFAULTS.settle_quiet_ms,
  };
  return { server, languages, problems };
}

type Table = Record<string, unknown>;

/** `over` laid on `under`, table by table: `over`'s value wins wherever both set a key to something other than two tables. */
function overlay(under: Table | undefined, over: Table | undefined): Table | undefined {
  if (under === undefined || over === undefined) return over ?? under;
  const merged: Table = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    merged[key] = isTable(below) && isTable(value) ? overlay(below, value) : value;
  }
  return merged;
}

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The adapter of an entry: its own key wins, then its profile's; an entry with neither whose command is a known server's npm package gets that server's (`known-servers.ts`).
 */
function chooseAdapter(
  own: AdapterName | undefined,
  fromProfile: AdapterName | undefined,
  profile: string | undefined,
  command: string,
): Pick<ResolvedServer, "adapter" | "adapter_chosen_by"> {
  if (own !== undefined) return { adapter: own, adapter_chosen_by: { by: "entry" } };
  // A profile that names no adapter chose the standard one.
  if (profile !== undefined) return { adapter: fromProfile ?? "standard", adapter_chosen_by: { by: "profile", profile } };
  const known = knownByPackage(command);
  if (known !== null) return { adapter: known.adapter, adapter_chosen_by: { by: "package", server: known.server, profile: known.profile } };
  return { adapter: "standard", adapter_chosen_by: { by: "standard" } };
}

/**
 * Lower-cases and dots every extension; one extension, or one file name, may belong to only one
 * language of a server. A file name is a whole base name ("Dockerfile"), matched exactly.
 */
function normalizeLanguages(languages: NonNullable<RawProfile["languages"]>, base: KeyPath, origin: string, problems: ConfigProblem[]): LanguageClaim[] {
  const owner = new Map<string, string>();
  const claim = (key: string, id: string, at: (string | number)[]): boolean => {
    if (owner.has(key)) {
      problems.push(problemAt(base, at, `"${key}" is already claimed by language "${owner.get(key)}"${origin}`));
      return false;
    }
    owner.set(key, id);
    return true;
  };
  return languages.map((language, i) => {
    const extensions: string[] = [];
    (language.extensions ?? []).forEach((extension, j) => {
      const at = ["languages", i, "extensions", j];
      const normalized = normalizeExtension(extension);
      if (normalized === null) {
        problems.push(problemAt(base, at, `"${extension}" is not a file extension such as ".ts"${origin}`));
      } else if (claim(normalized, language.id, at)) extensions.push(normalized);
    });
    const filenames: string[] = [];
    (language.filenames ?? []).forEach((filename, j) => {
      const at = ["languages", i, "filenames", j];
      if (!isFileName(filename)) {
        problems.push(problemAt(base, at, `"${filename}" is not a file name such as "Dockerfile"${origin}`));
      } else if (claim(filename, language.id, at)) filenames.push(filename);
    });
    return { id: language.id, extensions, filenames };
  });
}

/** A base name: no separators, and not "." or "..". */
function isFileName(name: string): boolean {
  return !/[/\\\0]/.test(name) && name !== "." && name !== "..";
}
