import type { ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { runOwnCommand, spawnOwnCommand } from "../exec/own-command.js";
import { overrideSettings, settingsEnv } from "./git-overrides.js";

/**
 * The one way lspmcp runs git. Every command runs in the folder it names (`git -C`, as lspmcp's
 * own commands run: `src/exec/own-command.ts`), never in a repository, work tree or index that the
 * bridge's environment points at: a git hook (`lspmcp check` from pre-commit) sets GIT_INDEX_FILE,
 * GIT_DIR and others relative to the hook's repository, and a command in a workspace must not read
 * them. It never writes into the checkout on its own account (GIT_OPTIONAL_LOCKS=0: no
 * opportunistic index refresh), and it runs no program that the repository's own configuration
 * names (`git-overrides.ts`).
 */

/** Large enough for the file lists and diffs of a very large monorepo. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * The variables git itself clears when it runs a command in another repository (its
 * `local_repo_env`, as `git rev-parse --local-env-vars` prints it in git 2.39).
 */
const REPOSITORY_VARIABLES = [
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_OBJECT_DIRECTORY",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_COMMON_DIR",
];

interface GitOptions {
  /** Set on top of the scrubbed environment, such as a temporary GIT_INDEX_FILE. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to git's stdin. */
  readonly input?: string;
}

/** What a git command ended with: its exit status (null when it could not run, stderr then saying why) and its output. */
interface GitResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `git args` in `cwd` to its end and returns its output. Never throws; a git that is missing
 * or fails gives a non-zero (or null) status.
 */
export async function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const settings = await settingsFor(cwd);
  const { status, stdout, stderr, error } = await runOwnCommand(["git", "-C", cwd, "--no-pager", ...args], {
    env: gitEnv({ ...options.env, ...settings }),
    checkouts: [cwd],
    timeoutMs: 0,
    maxBuffer: MAX_OUTPUT_BYTES,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  // A git that could not run at all (missing, or no file descriptor or process to be had) says why here.
  return { status, stdout, stderr: status === null && stderr === "" && error !== null ? error.message : stderr };
}

/** Starts `git args` in `cwd` with its stdout to read as it comes (stdin and stderr closed). */
export async function spawnGit(cwd: string, args: readonly string[]): Promise<ChildProcessByStdio<null, Readable, null>> {
  const settings = await settingsFor(cwd);
  return spawnOwnCommand(["git", "-C", cwd, "--no-pager", ...args], {
    env: gitEnv(settings),
    checkouts: [cwd],
    stdio: ["ignore", "pipe", "ignore"],
  }) as ChildProcessByStdio<null, Readable, null>;
}

/** The environment that turns off what would run a program of the repository's configuration in `cwd`. */
async function settingsFor(cwd: string): Promise<Record<string, string>> {
  const list = (args: readonly string[]) => runOwnCommand(["git", "-C", cwd, ...args], { env: gitEnv(), checkouts: [cwd], timeoutMs: 0 });
  return settingsEnv(await overrideSettings(list));
}

function gitEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

/** Splits git's `-z` output into its non-empty fields. */
export function nulFields(text: string): string[] {
  return text.split("\0").filter((field) => field !== "");
}
