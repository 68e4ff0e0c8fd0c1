// Runs the built `lspmcp` with one of its output streams read as a slow reader would (`| jq`,
// `| tee`), or redirected to a file, to compare what each one received.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BRIDGE_MAIN } from "./paths.js";
import { tempDir } from "./temp.js";
import { bridgeEnv } from "./tool-cache.js";

export interface CliRun {
  readonly code: number | null;
  readonly bytes: Buffer;
  /** The other stream (stderr when stdout was read, and the reverse), as text. */
  readonly other: string;
}

export interface CliOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** Which stream is under test. */
  readonly stream?: "stdout" | "stderr";
}

/** `lspmcp ARGS` with the stream under test redirected to a file, as `> out` does. */
export function runToFile(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const stream = options.stream ?? "stdout";
  const path = join(tempDir("lspmcp-out-"), "out");
  const fd = openSync(path, "w");
  const stdio: ["ignore", number | "pipe", number | "pipe"] = stream === "stdout" ? ["ignore", fd, "pipe"] : ["ignore", "pipe", fd];
  const child = spawn(process.execPath, [BRIDGE_MAIN, ...args], { cwd: options.cwd, env: { ...bridgeEnv(), ...options.env }, stdio });
  closeSync(fd);
  let other = "";
  (stream === "stdout" ? child.stderr : child.stdout)!.setEncoding("utf8").on("data", (chunk: string) => (other += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, bytes: readFileSync(path), other }));
  });
}

/**
 * `lspmcp ARGS` with the stream under test read slowly: after its first bytes, the reader stops
 * reading until the process has exited or `holdMs` have passed, then reads the rest. A writer
 * that exits before its pipe is drained loses all but what the pipe could hold (64 KiB);
 * a sound one waits, blocked, and everything arrives.
 */
export function runThroughSlowReader(args: readonly string[], options: CliOptions & { holdMs?: number }): Promise<CliRun> {
  const stream = options.stream ?? "stdout";
  const holdMs = options.holdMs ?? 2_000;
  const child = spawn(process.execPath, [BRIDGE_MAIN, ...args], {
    cwd: options.cwd,
    env: { ...bridgeEnv(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const slow = stream === "stdout" ? child.stdout : child.stderr;
  const chunks: Buffer[] = [];
  let other = "";
  (stream === "stdout" ? child.stderr : child.stdout).setEncoding("utf8").on("data", (chunk: string) => (other += chunk));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  // One listener throughout: a chunk read while the listener was being swapped (a `once` for the
  // first chunk, another for the rest) was lost, 64 KiB from the middle, on a busy machine.
  let held = false;
  slow.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    if (held) return;
    held = true;
    slow.pause();
    const hold = new Promise<void>((resolve) => setTimeout(resolve, holdMs));
    void Promise.race([exit, hold]).then(() => slow.resume());
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: exited ? code : null, bytes: Buffer.concat(chunks), other }));
  });
}

/**
 * `lspmcp ARGS` whose stdout reader takes the first bytes and closes its end (`| head -c N`).
 * Resolves with the exit code and stderr, or rejects after `deadlineMs` (a hang).
 */
export function runWithEarlyClose(
  args: readonly string[],
  options: CliOptions & { deadlineMs: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, ...args], {
    cwd: options.cwd,
    env: { ...bridgeEnv(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.once("data", () => child.stdout.destroy());
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`lspmcp ${args.join(" ")} still running ${options.deadlineMs} ms after its reader left`));
    }, options.deadlineMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stderr });
    });
  });
}
