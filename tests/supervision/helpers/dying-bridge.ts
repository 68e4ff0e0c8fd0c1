// Runs tests/supervision/fixtures/bridge-that-dies.mjs and returns what it reports.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { DYING_BRIDGE, REPO } from "../../helpers/paths.js";
import type { SweepUser } from "./sweep-user.js";

export interface DyingBridge {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly supervisorPid: number;
  readonly serverPid: number;
  readonly live: number;
}

/** Starts the stand-in bridge (as `user` when given) and waits for its report. */
export async function startDyingBridge(spec: Record<string, unknown>, user?: SweepUser): Promise<DyingBridge> {
  const child = spawn(process.execPath, [DYING_BRIDGE, JSON.stringify(spec)], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`dying bridge exited (${code}) before reporting: ${stderr}`)));
  });
  const report = JSON.parse(line) as { supervisorPid: number; serverPid: number; live: number };
  return { child, pid: child.pid!, ...report };
}
