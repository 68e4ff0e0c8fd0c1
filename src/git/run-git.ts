import { type ChildProcessByStdio, execFile, spawn } from "node:child_process";
import type { Readable } from "node:stream";

/**
 * The one way lspmcp runs git. Every command runs in the folder it names, never in a repository,
 * work tree or index that the bridge's environment points at: a git hook (`lspmcp check` from
 * pre-commit) sets GIT_INDEX_FILE, GIT_DIR and others relative to the hook's repository, and a
 * command in a workspace must not read them. It never writes into the checkout on its own account
 * (GIT_OPTIONAL_LOCKS=0: no opportunistic index refresh).
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

export interface GitOptions {
  /** Set on top of the scrubbed environment, such as a temporary GIT_INDEX_FILE. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to git's stdin. */
  readonly input?: string;
}

/** What a git command ended with: its exit status (null when it could not run, stderr then saying why) and its output. */
export interface GitResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `git args` in `cwd` to its end and returns its output. Never throws; a git that is missing
 * or fails gives a non-zero (or null) status.
 */
export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = execFile("git", [...args], { cwd, encoding: "utf8", maxBuffer: MAX_OUTPUT_BYTES, env: gitEnv(options.env) }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : null;
      // A git that could not run at all (missing, or no file descriptor or process to be had) says why here.
      resolve({ status, stdout, stderr: status === null && stderr === "" && error !== null ? error.message : stderr });
    });
    // git may exit before reading all of its input (an error): a broken pipe is then no news.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}

/** Starts `git args` in `cwd` with its stdout to read as it comes (stdin and stderr closed). */
export function spawnGit(cwd: string, args: readonly string[]): ChildProcessByStdio<null, Readable, null> {
  return spawn("git", [...args], { cwd, stdio: ["ignore", "pipe", "ignore"], env: gitEnv() });
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
