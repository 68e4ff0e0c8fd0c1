import { basename } from "node:path";
import { parseMarker, tableMarkersIn, type Marker } from "./default-markers.js";
import { detectLanguages, type Detected } from "./detect-languages.js";
import { installHint } from "./install-hint.js";
import { normalizeExtension } from "./extensions.js";
import type { ProjectRootsFinder } from "./project-roots.js";
import { loadProfile, profileNames } from "./profiles.js";
import { resolveProfileExecutable } from "./resolve-executable.js";
import type { RawProfile } from "./schema.js";
import { offPin } from "./system-version.js";
import type { OmittedServer } from "./types.js";

/** One profile the default serves, with the shipped pin. */
interface PlannedServer {
  readonly name: string;
  readonly profile: RawProfile;
  /** The occurring keys it serves: extensions (".ts") and file names (tsconfig.json). */
  readonly serves: readonly string[];
  /** Why it was chosen where another could have been: what configures it, or null. */
  readonly reason: string | null;
  /**
   * The project roots found for it (relative folders, "" the root), as its sessions find them at
   * their start; null for a profile that takes none.
   */
  readonly projects: readonly string[] | null;
}

/** The embedded default for a root, before it is resolved like a file. */
export interface DefaultPlan {
  readonly root: string;
  readonly workspace: string;
  readonly servers: readonly PlannedServer[];
  /** Extension → server, for each extension that two chosen profiles claim. */
  readonly defaultServer: Readonly<Record<string, string>>;
  readonly omitted: readonly OmittedServer[];
  readonly detected: Detected;
}

/** Test seams; production callers pass the package root and the bridge's PATH. */
export interface PlanOptions {
  readonly packageRoot: string;
  readonly searchPath: string;
  /** The languages' registry's `projectRootsIn`: the config knows no language's root markers. */
  readonly projectRoots: ProjectRootsFinder;
}

/**
 * Plans the embedded default for `root` (CONTRACT §2): every shipped profile whose language occurs
 * there (by extension, file name or marker), one per language, leaving out — with the reason and
 * how to install it — each whose server is not installed, and each system server whose installed
 * version is not the pin, with how to pin it. Never throws for a missing server.
 */
export async function planDefault(root: string, options: PlanOptions): Promise<DefaultPlan> {
  const profiles = await loadProfiles(options.packageRoot);
  const claims = new Map(profiles.map(({ name, profile }) => [name, claimsOf(profile)]));
  const extensions = new Set<string>();
  const filenames = new Set<string>();
  const tableMarkers = new Map<string, Marker>();
  for (const claim of claims.values()) {
    claim.extensions.forEach((key) => extensions.add(key));
    claim.filenames.forEach((key) => filenames.add(key));
    for (const marker of claim.markers) {
      if (marker.table === null) filenames.add(marker.file);
      else tableMarkers.set(marker.key, marker);
    }
  }
  const collect = new Set([...tableMarkers.values()].map(({ file }) => file));
  const detected = await detectLanguages(root, { extensions, filenames, collect });
  const tables = await tableMarkersIn(root, [...tableMarkers.values()], detected.collected);
  const occurs = (key: string) => detected.extensions.has(key) || detected.filenames.has(key) || tables.has(key);

  const profileOf = new Map(profiles.map(({ name, profile }) => [name, profile]));
  const configuredBy = (name: string) => (profileOf.get(name)?.default?.configured_by ?? []).filter(occurs);
  const reasons = new Map<string, string>();
  for (const { name } of profiles) if (configuredBy(name).length > 0) reasons.set(name, `configured by ${configuredBy(name).join(", ")}`);
  const { replacements, yielded, reasons: yieldingReasons } = await giveWay(profileOf, configuredBy, options);
  yieldingReasons.forEach((reason, name) => reasons.set(name, reason));

  const servers: PlannedServer[] = [];
  const omitted: OmittedServer[] = [];
  const owned = new Set<string>();
  // A replacement comes first, in the place of the profile it replaces; an unconfigured one serves nothing.
  const replacing = new Set(replacements.values());
  const chosen = [...profiles.filter(({ name }) => replacing.has(name)), ...profiles.filter(({ name }) => !replacing.has(name) && !replacements.has(name))];
  for (const { name, profile } of chosen) {
    if (profile.default?.never) continue;
    if (yielded.has(name) && configuredBy(name).length === 0) continue;
    const serves = claims.get(name)!.keys.filter((key) => occurs(key) && !owned.has(key));
    if (serves.length === 0) continue;
    const missing = await whyMissing(profile, options);
    if (missing !== null) {
      omitted.push({
        server: name,
        reason: missing,
        install: installHint(name, profile.install, profile.command),
      });
      continue;
    }
    // Installed, but another distribution's version: left out with how to pin it, rather than
    // planned to answer ServerVersionMismatch to every call (an alternative may serve instead).
    const off = await offPin(profile, options.packageRoot, options.searchPath);
    if (off !== null) {
      omitted.push({
        server: name,
        reason: `installed, but \`${off.asked}\` reports "${off.reported}", and the profile pins ${off.pinned} (Debian 12's)`,
        install: `pin what is installed in a bridge.toml, version = "${off.pinnable ?? off.reported}" in its [[server]] (\`lspmcp init\` writes the file)`,
        pin: off.pinnable ?? off.reported,
      });
      continue;
    }
    serves.forEach((key) => owned.add(key));
    const projects = profile.projects === undefined ? null : await options.projectRoots(root, profile.projects);
    servers.push({ name, profile, serves, reason: reasons.get(name) ?? null, projects });
  }
  return { root, workspace: workspaceName(root), servers, defaultServer: defaultServers(servers, claims), omitted, detected };
}

/** Which profiles answer in the place of those that yield to them, and every profile yielded to. */
interface GivenWay {
  /** Yielding profile → the profile that answers instead. */
  readonly replacements: ReadonlyMap<string, string>;
  /** The profiles some `yields_to` names: each is planned only where it is configured. */
  readonly yielded: ReadonlySet<string>;
  /** Yielding profile → why it answers itself, when none of those it yields to does. */
  readonly reasons: ReadonlyMap<string, string>;
}

/**
 * Each profile with `yields_to` gives way to the first of those profiles that the project
 * configures and that is installed; one configured but not installed is left out by the plan,
 * with how to install it, and the yielding profile answers meanwhile, saying why.
 */
async function giveWay(profileOf: ReadonlyMap<string, RawProfile>, configuredBy: (name: string) => string[], options: PlanOptions): Promise<GivenWay> {
  const replacements = new Map<string, string>();
  const reasons = new Map<string, string>();
  const yielded = new Set<string>();
  for (const [name, profile] of profileOf) {
    const yieldsTo = profile.default?.yields_to;
    if (yieldsTo === undefined) continue;
    yieldsTo.forEach((other) => yielded.add(other));
    const configured = yieldsTo.filter((other) => profileOf.has(other) && configuredBy(other).length > 0);
    let replacement: string | null = null;
    for (const other of configured) {
      if ((await whyMissing(profileOf.get(other)!, options)) !== null) continue;
      replacement = other;
      break;
    }
    if (replacement !== null) {
      replacements.set(name, replacement);
      continue;
    }
    const markers = yieldsTo.flatMap((other) => profileOf.get(other)?.default?.configured_by ?? []);
    const why = configured.length > 0 ? `${configured.join(", ")} configured but not installed` : `none of ${markers.join(", ")} found`;
    reasons.set(name, `${profile.default!.role} by default (${why})`);
  }
  return { replacements, yielded, reasons };
}

/**
 * The shipped profiles in choosing order: by their `[default]` preference, highest first, equals
 * by name. An unreadable profile cannot be planned and is skipped.
 */
async function loadProfiles(packageRoot: string): Promise<{ name: string; profile: RawProfile }[]> {
  const names = await profileNames(packageRoot);
  const loaded = await Promise.all(names.map(async (name) => ({ name, result: await loadProfile(packageRoot, name) })));
  const preference = (profile: RawProfile) => profile.default?.preference ?? 0;
  return loaded
    .flatMap(({ name, result }) => (result.ok && result.profile.languages ? [{ name, profile: result.profile }] : []))
    .sort((a, b) => preference(b.profile) - preference(a.profile) || a.name.localeCompare(b.name));
}

/** What a profile claims for detection. */
interface Claims {
  /** Every key, in the order `serves` names them: each language's extensions and file names, then the markers. */
  readonly keys: readonly string[];
  readonly extensions: readonly string[];
  readonly filenames: readonly string[];
  readonly markers: readonly Marker[];
}

/** A profile's detection keys: its languages' extensions and file names, then its markers and configuration. */
function claimsOf(profile: RawProfile): Claims {
  const extensions: string[] = [];
  const filenames: string[] = [];
  const keys = new Set<string>();
  for (const language of profile.languages ?? []) {
    for (const extension of language.extensions ?? []) {
      const normalized = normalizeExtension(extension);
      if (normalized === null) continue;
      extensions.push(normalized);
      keys.add(normalized);
    }
    for (const filename of language.filenames ?? []) {
      filenames.push(filename);
      keys.add(filename);
    }
  }
  const markers = [...(profile.default?.markers ?? []), ...(profile.default?.configured_by ?? [])].map(parseMarker);
  markers.forEach(({ key }) => keys.add(key));
  return { keys: [...keys], extensions, filenames, markers };
}

/** Why the profile's server cannot run here, or null when its executables are all found. */
async function whyMissing(profile: RawProfile, options: PlanOptions): Promise<string | null> {
  const commands = [profile.command, profile.version_command?.[0], ...(profile.install?.needs ?? [])];
  for (const command of commands) {
    if (command === undefined) continue;
    const found = await resolveProfileExecutable(command, options.packageRoot, options.searchPath);
    if (!found.ok) return found.message;
  }
  return null;
}

/** For each extension claimed by two chosen profiles, the earlier one answers (diagnostics asks both). */
function defaultServers(servers: readonly PlannedServer[], claims: ReadonlyMap<string, Claims>): Record<string, string> {
  const owner = new Map<string, string>();
  const choice: Record<string, string> = {};
  for (const server of servers) {
    for (const key of new Set(claims.get(server.name)!.extensions)) {
      const first = owner.get(key);
      if (first === undefined) owner.set(key, server.name);
      else choice[key] = first;
    }
  }
  return choice;
}

/** The root folder's name, made into a valid workspace name. */
function workspaceName(root: string): string {
  const cleaned = basename(root)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "");
  return cleaned === "" ? "workspace" : cleaned;
}
