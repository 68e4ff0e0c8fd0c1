import { type ChildProcess, execFile, spawn, type StdioOptions } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * How lspmcp runs a program on its own account (a version check, a toolchain check, an install
 * step, git, a lock holder): isolated from the checkout it works on, so that nothing the checkout
 * holds is loaded as code by a command the user never asked to run there.
 *
 * - The current folder is `/`: an interpreter that looks in its current folder first (Python's
 *   `-c` and `-m`, a shell's relative PATH entry) finds nothing of a checkout there.
 * - Python runs with `-I` (isolated: neither the script's folder nor the current folder on
 *   `sys.path`, no `PYTHON*` variable, no user site), and every Python the command starts in
 *   turn with `PYTHONSAFEPATH=1`, which keeps the current and the script's folder off `sys.path`.
 *   A server's version command keeps the server's own Python environment instead (its
 *   `PYTHONPATH`, filtered as below, and user site): it must import what the server will import,
 *   or a server missing a module passes its pin and answers every file clean.
 * - The search paths it inherits (`PATH`, `PYTHONPATH`, `NODE_PATH`, `LD_LIBRARY_PATH`) lose
 *   their empty and relative entries and every entry inside a checkout: the git top-level of
 *   lspmcp's own current folder, and the folders the caller names.
 */

/** The current folder of every command lspmcp runs on its own account. */
const OWN_COMMAND_CWD = "/";

/** The variables that name folders to search for programs or modules. */
const SEARCH_PATH_VARIABLES = ["PATH", "PYTHONPATH", "NODE_PATH", "LD_LIBRARY_PATH"] as const;

/** A Python interpreter by its file name: `python`, `python3`, `python3.11`. */
const PYTHON = /^python(\d+(\.\d+)?)?$/;

interface OwnCommandOptions {
  /** The environment to start from (default: lspmcp's own); its search paths are filtered. */
  readonly env?: NodeJS.ProcessEnv;
  /** Folders the command must load nothing from, besides the git top-level of lspmcp's current folder. */
  readonly checkouts?: readonly string[];
  /**
   * `server`: a server's version command, which sees Python's variables as the server does (no
   * `-I`; the safe path and the filtered search paths still hold). Default `isolated`.
   */
  readonly python?: "isolated" | "server";
}

/** What a command ended with: its status (null when it did not exit by itself, `error` then saying why) and its output. */
interface OwnCommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error: Error | null;
}

/**
 * The top of the git work tree holding `dir`: the nearest ancestor (or `dir` itself) with a
 * `.git` entry (a folder, or the file of a worktree or submodule). Null outside any work tree.
 * Read from the file system rather than asked of git, so it costs no process and needs no git.
 */
export function gitTopLevel(dir: string): string | null {
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return current;
    if (dirname(current) === current) return null;
  }
}

/** `argv` as lspmcp runs it: a Python interpreter gets `-I` first, unless it runs as a server's own check. */
export function ownArgv(argv: readonly [string, ...string[]], python: OwnCommandOptions["python"] = "isolated"): [string, ...string[]] {
  const [file, ...args] = argv;
  return python === "isolated" && PYTHON.test(basename(file)) && args[0] !== "-I" ? [file, "-I", ...args] : [file, ...args];
}

/** `env` with its search paths kept off the checkouts, and Python's safe path on. */
export function ownEnv(env: NodeJS.ProcessEnv = process.env, checkouts: readonly string[] = []): NodeJS.ProcessEnv {
  const folders = checkoutFolders(checkouts);
  const out: NodeJS.ProcessEnv = { ...env, PYTHONSAFEPATH: "1" };
  for (const name of SEARCH_PATH_VARIABLES) {
    const value = env[name];
    if (value !== undefined) out[name] = ownSearchPath(value, folders);
  }
  return out;
}

/**
 * A search path (PATH syntax) without its empty and relative entries (in a shell they mean the
 * current folder) and without the entries inside `checkouts` (real paths: a link into a checkout
 * is inside it). The same lookup that `findExecutable` makes then finds no program of a checkout.
 */
export function ownSearchPath(searchPath: string, checkouts: readonly string[] = checkoutFolders([])): string {
  return searchPath
    .split(delimiter)
    .filter((entry) => isAbsolute(entry) && !checkouts.some((checkout) => isWithin(realOrSelf(entry), checkout)))
    .join(delimiter);
}

/**
 * Runs `argv` to its end, isolated as this module says, and returns its output. Never throws: a
 * program that cannot start, fails, or outlives `timeoutMs` (then killed with SIGKILL) gives a
 * non-zero or null status and the reason in `error`.
 */
export function runOwnCommand(
  argv: readonly [string, ...string[]],
  options: OwnCommandOptions & { readonly timeoutMs: number; readonly input?: string; readonly maxBuffer?: number },
): Promise<OwnCommandResult> {
  const [file, ...args] = ownArgv(argv, options.python);
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      {
        cwd: OWN_COMMAND_CWD,
        env: ownEnv(options.env, options.checkouts),
        encoding: "utf8",
        timeout: options.timeoutMs,
        killSignal: "SIGKILL",
        maxBuffer: options.maxBuffer ?? 1 << 20,
      },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ status: error === null ? 0 : typeof code === "number" ? code : null, stdout, stderr, error });
      },
    );
    // A program may exit before reading all of its input: a broken pipe is then no news.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}

/** Starts `argv`, isolated as this module says, with the given stdio; the caller follows it. */
export function spawnOwnCommand(argv: readonly [string, ...string[]], options: OwnCommandOptions & { readonly stdio: StdioOptions }): ChildProcess {
  const [file, ...args] = ownArgv(argv, options.python);
  return spawn(file, args, { cwd: OWN_COMMAND_CWD, env: ownEnv(options.env, options.checkouts), stdio: options.stdio });
}

function checkoutFolders(extra: readonly string[]): string[] {
  const top = gitTopLevel(process.cwd());
  return [...(top === null ? [] : [top]), ...extra].map(realOrSelf);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}
