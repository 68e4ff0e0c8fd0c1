/**
 * The git options that keep a repository's own configuration from starting a program. A
 * checkout's `.git/config` is not the user's: an archive, a copied checkout or a tool that wrote
 * it may set `core.fsmonitor` (run by every command that reads the index), a filter driver's
 * `smudge` or `clean` (run when files are checked out or hashed), or a transport that a partial
 * clone's lazy fetch would start. The user's own settings (system and global) keep working: a
 * `git lfs install` filter in `~/.gitconfig` still applies.
 */

/** One configuration key and the value a command runs with. */
type GitSetting = readonly [key: string, value: string];

/** Set on every command: nothing git starts through them is needed to read a repository. */
const ALWAYS_OFF: readonly GitSetting[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  // No transport at all: lspmcp only reads what the repository holds, and a partial clone's
  // lazy fetch would run whatever remote, ssh command or helper the configuration names.
  ["protocol.allow", "never"],
];

/** The scopes of git's configuration that belong to the repository rather than to the user. */
const REPOSITORY_SCOPES: ReadonlySet<string> = new Set(["local", "worktree"]);

/**
 * What a key of the repository's configuration that names a program is set to instead, by the
 * key's name as `git config --list` prints it (section and variable lower-case; a subsection
 * may hold any character). Keys that run a
 * program only in commands lspmcp never runs (an editor, a merge driver, a credential helper
 * behind the closed transports) and the diff drivers (lspmcp's one diff, `diff-index
 * --name-status`, is plumbing with `--no-ext-diff --no-textconv`) need no entry.
 */
const NEUTRAL: readonly (readonly [RegExp, string])[] = [
  [/^filter\..+\.(clean|smudge|process)$/s, ""],
  // A required filter that is off would fail the command; the file is then taken as stored.
  [/^filter\..+\.required$/s, "false"],
  [/^protocol\..+\.allow$/s, "never"],
];

/** Runs `git config ARGS` in the repository (the caller's git, with its own isolation). */
type ConfigLister = (args: readonly string[]) => Promise<{ readonly status: number | null; readonly stdout: string }>;

/**
 * The settings a command in the repository runs with: those set on every command, then one that
 * neutralises each program-naming key the repository's own configuration (`.git/config`,
 * `config.worktree`, and the files they include) sets. Only the first ones outside a repository,
 * or when git cannot list its configuration (the command that follows then fails on its own).
 */
export async function overrideSettings(list: ConfigLister): Promise<GitSetting[]> {
  const listed = await list(["config", "--list", "--show-scope", "--name-only", "--includes", "-z"]);
  return [...ALWAYS_OFF, ...(listed.status === 0 ? repositoryOverrides(listed.stdout) : [])];
}

/**
 * Given out as git's environment (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_n`, `GIT_CONFIG_VALUE_n`:
 * the scope of `-c`, above every file), where a key is never split at an `=` of its own, as a
 * subsection name may hold one.
 */
export function settingsEnv(settings: readonly GitSetting[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * The overrides for `git config --list --show-scope --name-only -z` output (`scope\0key\0`
 * pairs): one per program-naming key of a repository scope, each once.
 */
export function repositoryOverrides(listing: string): GitSetting[] {
  const fields = listing.split("\0");
  const keys = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (REPOSITORY_SCOPES.has(fields[i]!)) keys.add(fields[i + 1]!);
  }
  const out: GitSetting[] = [];
  for (const key of keys) {
    const neutral = NEUTRAL.find(([pattern]) => pattern.test(key));
    if (neutral !== undefined) out.push([key, neutral[1]]);
  }
  return out;
}
