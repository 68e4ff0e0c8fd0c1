import { execFileSync, spawn } from "node:child_process";
import { childOutput, type ChildOutput } from "../../helpers/child-output.js";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { BRIDGE_MAIN } from "../../helpers/paths.js";
import { requireBuild } from "../../helpers/require-binary.js";
import { tempDir } from "../../helpers/temp.js";
import { bridgeEnv } from "../../helpers/tool-cache.js";

/**
 * A PATH whose first folder holds `lspmcp`, a link to this checkout's built bin, as `npm link` or
 * a global install puts it: run by name, its `#!` line chooses the interpreter, as a user's shell does.
 */
export function pathWithLspmcp(): string {
  requireBuild();
  const bin = tempDir("lspmcp-bin-");
  symlinkSync(BRIDGE_MAIN, join(bin, "lspmcp"));
  const path = `${bin}:${process.env.PATH ?? ""}`;
  requireTestNode(path);
  return path;
}

/**
 * `npm test` runs these files again under Node 22 and 24 (scripts/run-tests.ts names that Node in
 * LSPMCP_TEST_NODE and puts it first on PATH): the tests and the bin they find must both run on
 * it, or the run proves nothing about that Node.
 */
function requireTestNode(path: string): void {
  const wanted = process.env.LSPMCP_TEST_NODE;
  if (wanted === undefined) return;
  const version = execFileSync(wanted, ["--version"], { encoding: "utf8" }).trim();
  const onPath = execFileSync("node", ["--version"], { encoding: "utf8", env: { PATH: path } }).trim();
  if (process.version !== version || onPath !== version)
    throw new Error(`asked to run on ${wanted} (${version}), but the tests run on ${process.version} and the bin's \`node\` is ${onPath}`);
}

export type RunResult = ChildOutput;

/** Runs `lspmcp ARGS`, found on `path`, in `cwd`, to its exit; stdout and stderr are pipes. */
export function runLspmcp(args: readonly string[], options: { cwd: string; path: string; env?: Record<string, string> }): Promise<RunResult> {
  // The lookup of a bare command name uses the PATH of the child's own environment.
  return childOutput(
    spawn("lspmcp", args, {
      cwd: options.cwd,
      env: { ...bridgeEnv(), PATH: options.path, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}
