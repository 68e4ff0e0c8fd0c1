import { spawn } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { BRIDGE_MAIN } from "../../helpers/paths.js";
import { requireBuild } from "../../helpers/require-binary.js";
import { tempDir } from "../../helpers/temp.js";

/**
 * A PATH whose first folder holds `lspmcp`, a link to this checkout's built bin, as `npm link` or
 * a global install puts it: run by name, its `#!` line chooses the interpreter, as a user's shell does.
 */
export function pathWithLspmcp(): string {
  requireBuild();
  const bin = tempDir("lspmcp-bin-");
  symlinkSync(BRIDGE_MAIN, join(bin, "lspmcp"));
  return `${bin}:${process.env.PATH ?? ""}`;
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `lspmcp ARGS`, found on `path`, in `cwd`, to its exit; stdout and stderr are pipes. */
export function runLspmcp(args: readonly string[], options: { cwd: string; path: string; env?: Record<string, string> }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // The lookup of a bare command name uses the PATH of the child's own environment.
    const child = spawn("lspmcp", args, {
      cwd: options.cwd,
      env: { PATH: options.path, HOME: process.env.HOME ?? "/root", ...cacheEnv(), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The tool cache the tests' servers come from (gopls, ruff, rust-analyzer), when it is not under HOME. */
export function cacheEnv(): Record<string, string> {
  return process.env.XDG_CACHE_HOME === undefined ? {} : { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
}
