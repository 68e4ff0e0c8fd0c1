import { execFile } from "node:child_process";

/** Large enough for the file lists and diffs of a very large monorepo. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface GitOptions {
  /** Extra environment on top of the bridge's, such as a temporary GIT_INDEX_FILE. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to git's stdin. */
  readonly input?: string;
}

/** What a git command ended with: its exit status (null when it could not run) and its output. */
export interface GitResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `git args` in `cwd` without ever writing into the checkout on its own account:
 * GIT_OPTIONAL_LOCKS=0 stops the opportunistic index refresh that status-like commands do, and no
 * command used here writes otherwise (a temporary index, when needed, lives outside the checkout).
 * Never throws; a git that is missing or fails gives a non-zero status.
 */
export function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      [...args],
      { cwd, encoding: "utf8", maxBuffer: MAX_OUTPUT_BYTES, env: { ...inheritedEnv(), GIT_OPTIONAL_LOCKS: "0", ...options.env } },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : null;
        resolve({ status, stdout, stderr });
      },
    );
    // git may exit before reading all of its input (an error): a broken pipe is then no news.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}

/**
 * The bridge's environment without the variables that point git at another repository, work tree
 * or index: set when lspmcp runs from a git hook (`check --since` in pre-commit), they are relative
 * to the hook's folder, while these commands run in the workspace's.
 */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR"]) delete env[name];
  return env;
}

/** Splits git's `-z` output into its non-empty fields. */
export function nulFields(text: string): string[] {
  return text.split("\0").filter((field) => field !== "");
}
