import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { installHint } from "./install-hint.js";
import { detectLanguages, type Detected } from "./detect-languages.js";
import { normalizeExtension } from "./extensions.js";
import { findProjectRoots } from "./project-roots.js";
import { loadProfile, profileNames } from "./profiles.js";
import { resolveProfileExecutable } from "./resolve-executable.js";
import type { RawProfile } from "./schema.js";
import { offPin } from "./system-version.js";
import type { OmittedServer } from "./types.js";

/**
 * Marker files that show a profile's language even before a file of it exists, by profile name.
 * Everything else is detected from the profiles' own `languages` (extensions, and `filenames`
 * where a profile has them), so a new profile in `servers/` is detected without a change here.
 */
const MARKERS: Readonly<Record<string, readonly string[]>> = {
  typescript: ["tsconfig.json", "jsconfig.json"],
  pyright: ["pyproject.toml", "pyrightconfig.json", "setup.py", "setup.cfg", "requirements.txt"],
  clangd: ["compile_commands.json", "compile_flags.txt"],
  // A linter joins the type checker only where the project configures it, and another type
  // checker replaces pyright there (PYTHON_CHECKERS).
  ruff: ["ruff.toml", ".ruff.toml"],
  ty: ["ty.toml"],
  pyrefly: ["pyrefly.toml"],
  "rust-analyzer": ["Cargo.toml"],
  // EmmyLua's configuration, which emmylua_check and lua-language-server's users keep.
  emmylua: [".emmyrc.json", ".luarc.json"],
};

/**
 * Markers that are a table inside a shared file rather than a file of their own, looked for in
 * every copy of that file under the root: `[tool.ruff]` in pyproject.toml configures ruff (a
 * monorepo's Python package in `py/` has its own).
 */
const TABLE_MARKERS: Readonly<Record<string, { readonly file: string; readonly table: RegExp; readonly key: string }>> = {
  ruff: { file: "pyproject.toml", table: /^\[tool\.ruff[.\]]/m, key: "pyproject.toml [tool.ruff]" },
  ty: { file: "pyproject.toml", table: /^\[tool\.ty[.\]]/m, key: "pyproject.toml [tool.ty]" },
  pyrefly: { file: "pyproject.toml", table: /^\[tool\.pyrefly[.\]]/m, key: "pyproject.toml [tool.pyrefly]" },
  basedpyright: { file: "pyproject.toml", table: /^\[tool\.basedpyright[.\]]/m, key: "pyproject.toml [tool.basedpyright]" },
};

/**
 * Python's type checkers other than pyright, in the order one is preferred when a project
 * configures several: the first whose configuration occurs (its MARKERS or TABLE_MARKERS, in any
 * folder) answers Python in pyright's place; otherwise pyright does, and these are not planned.
 */
const PYTHON_CHECKERS = ["ty", "pyrefly", "basedpyright"];

/**
 * The order in which profiles take the extensions they claim: these first, then the rest by name,
 * then the alternatives (a second server for a language another profile already serves). A
 * profile is chosen only when it serves something no earlier profile does, so the default runs
 * one server per language.
 */
const FIRST = ["typescript", "pyright", "clangd", "bash", "maude"];
const LAST = ["basedpyright", "biome", "ccls", "pylsp", "pyrefly", "ruff", "ty"];

/**
 * Profiles the default never plans: bacon-ls answers diagnostics alone (no hover, definition or
 * symbols), so it serves Rust only beside rust-analyzer, as the owner of its diagnostics, which a
 * user configures (`diagnostics_server`, docs/configuration.md).
 */
const NEVER_DEFAULT = new Set(["bacon-ls"]);

/** One profile the default serves, with the shipped pin. */
export interface PlannedServer {
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
}

/**
 * Plans the embedded default for `root` (CONTRACT §2): every shipped profile whose language occurs
 * there (by extension, file name or marker), one per language, leaving out — with the reason and
 * how to install it — each whose server is not installed, and each system server whose installed
 * version is not the pin, with how to pin it. Never throws for a missing server.
 */
export async function planDefault(root: string, options: PlanOptions): Promise<DefaultPlan> {
  const profiles = await loadProfiles(options.packageRoot);
  const keysOf = new Map(profiles.map(({ name, profile }) => [name, claimedKeys(name, profile)]));
  const extensions = new Set<string>();
  const filenames = new Set<string>();
  for (const keys of keysOf.values()) {
    for (const key of keys) if (!TABLE_KEYS.has(key)) (isExtensionKey(key) ? extensions : filenames).add(key);
  }
  const collect = new Set(Object.values(TABLE_MARKERS).map(({ file }) => file));
  const detected = await detectLanguages(root, { extensions, filenames, collect });
  const tables = await tableMarkersIn(root, detected.collected);
  const occurs = (key: string) => detected.extensions.has(key) || detected.filenames.has(key) || tables.has(key);

  const configuredBy = (name: string) => markerKeys(name).filter(occurs);
  const profileOf = new Map(profiles.map(({ name, profile }) => [name, profile]));
  const configured = PYTHON_CHECKERS.filter((name) => profileOf.has(name) && configuredBy(name).length > 0);
  // The first configured checker that is installed; one that is not is left out below, with how
  // to install it, and pyright answers meanwhile.
  let checker: string | null = null;
  for (const name of configured) {
    if ((await whyMissing(profileOf.get(name)!, options)) !== null) continue;
    checker = name;
    break;
  }
  const reasons = new Map<string, string>();
  for (const name of ["ruff", ...PYTHON_CHECKERS]) if (configuredBy(name).length > 0) reasons.set(name, `configured by ${configuredBy(name).join(", ")}`);
  if (checker === null) {
    const why =
      configured.length > 0 ? `${configured.join(", ")} configured but not installed` : `none of ${PYTHON_CHECKERS.flatMap(markerKeys).join(", ")} found`;
    reasons.set("pyright", `Python's type checker by default (${why})`);
  }

  const servers: PlannedServer[] = [];
  const omitted: OmittedServer[] = [];
  const owned = new Set<string>();
  // The configured checker takes pyright's place; an unconfigured alternative serves nothing.
  const chosen =
    checker === null
      ? profiles
      : [...profiles.filter(({ name }) => name === checker), ...profiles.filter(({ name }) => name !== checker && name !== "pyright")];
  for (const { name, profile } of chosen) {
    if (NEVER_DEFAULT.has(name)) continue;
    if (PYTHON_CHECKERS.includes(name) && configuredBy(name).length === 0) continue;
    const serves = keysOf.get(name)!.filter((key) => occurs(key) && !owned.has(key));
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
    const projects = profile.projects === undefined ? null : await findProjectRoots(root, profile.projects);
    servers.push({ name, profile, serves, reason: reasons.get(name) ?? null, projects });
  }
  return { root, workspace: workspaceName(root), servers, defaultServer: defaultServers(servers), omitted, detected };
}

/** The shipped profiles in choosing order; an unreadable profile cannot be planned and is skipped. */
async function loadProfiles(packageRoot: string): Promise<{ name: string; profile: RawProfile }[]> {
  const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : LAST.includes(name) ? FIRST.length + 1 + LAST.indexOf(name) : FIRST.length);
  const names = (await profileNames(packageRoot)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const loaded = await Promise.all(names.map(async (name) => ({ name, result: await loadProfile(packageRoot, name) })));
  return loaded.flatMap(({ name, result }) => (result.ok && result.profile.languages ? [{ name, profile: result.profile }] : []));
}

/** A profile's detection keys: its languages' extensions and file names, then its markers. */
function claimedKeys(name: string, profile: RawProfile): string[] {
  const keys = new Set<string>();
  for (const language of profile.languages ?? []) {
    for (const extension of language.extensions ?? []) {
      const normalized = normalizeExtension(extension);
      if (normalized !== null) keys.add(normalized);
    }
    // `filenames` (whole file names such as Dockerfile) where the schema has them.
    for (const filename of (language as { filenames?: readonly string[] }).filenames ?? []) keys.add(filename);
  }
  for (const marker of MARKERS[name] ?? []) keys.add(marker);
  const table = TABLE_MARKERS[name];
  if (table) keys.add(table.key);
  return [...keys];
}

/** The keys that show a project configures `name`: its marker files and its table. */
function markerKeys(name: string): string[] {
  const table = TABLE_MARKERS[name];
  return [...(MARKERS[name] ?? []), ...(table ? [table.key] : [])];
}

const TABLE_KEYS = new Set(Object.values(TABLE_MARKERS).map(({ key }) => key));

/** An extension (".ts"), as opposed to a file name, dotted ones (".ruff.toml") included. */
function isExtensionKey(key: string): boolean {
  return normalizeExtension(key) === key;
}

/** The keys of the table markers found in `paths` (relative to the root); an unreadable file has none. */
async function tableMarkersIn(root: string, paths: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const { file, table, key } of Object.values(TABLE_MARKERS)) {
    for (const path of paths) {
      if (basename(path) !== file) continue;
      const text = await readFile(join(root, path), "utf8").catch(() => "");
      if (!table.test(text)) continue;
      found.add(key);
      break;
    }
  }
  return found;
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
function defaultServers(servers: readonly PlannedServer[]): Record<string, string> {
  const owner = new Map<string, string>();
  const choice: Record<string, string> = {};
  for (const server of servers) {
    for (const key of claimedKeys(server.name, server.profile).filter(isExtensionKey)) {
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
