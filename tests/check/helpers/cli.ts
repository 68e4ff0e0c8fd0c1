import { spawn } from "node:child_process";
import { childOutput, type ChildOutput } from "../../helpers/child-output.js";
import { join } from "node:path";
import { BRIDGE_MAIN, REPO } from "../../helpers/paths.js";
import { bridgeEnv } from "../../helpers/tool-cache.js";

/** The fixture of check's tests: its config and its workspace (TypeScript, Python, Maude). */
export const FIXTURE = join(REPO, "tests/fixtures/check");
export const FIXTURE_CONFIG = join(FIXTURE, "bridge.toml");
export const FIXTURE_ROOT = join(FIXTURE, "workspace");

export type CliResult = ChildOutput;

/** Runs the real binary, `node dist/lspmcp/main.js check ARGS`, to its exit. */
export function runCheckCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return childOutput(
    spawn(process.execPath, [BRIDGE_MAIN, "check", ...args], {
      cwd: options.cwd ?? FIXTURE_ROOT,
      env: { ...bridgeEnv(), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** The JSON log lines of a run made with LSPMCP_LOG=json, by message. */
export function logLines(stderr: string, message: string): Record<string, any>[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((entry) => entry.message === message);
}
