import { spawn } from "node:child_process";
import { closeSync, fstatSync, ftruncateSync } from "node:fs";
import { openOwnForAppend } from "../config/own-files.js";
import type { LeasePaths } from "./lease-location.js";
import { LeaseSchema, type Lease } from "./lease-schema.js";

/** The log of shared servers is cut back to nothing at a launch once it has grown past this. */
const MAX_LOG_BYTES = 1024 * 1024;

/** What a launched shared server says on its stdout, as one JSON line, before it detaches. */
interface LaunchReport {
  /** The lease to attach to: the new server's own when it won the election, else the holder's. */
  readonly lease: Lease;
}

/**
 * Starts a shared server (`argv`, the lspmcp command that runs one) through `setsid --fork`: in a
 * session of its own and a child of no lspmcp, so it outlives this process, and neither a signal
 * to this process group nor a client that kills this process's tree reaches it. Its stderr is
 * appended to the lease folder's log. Resolves with the lease it reports once elected (or once it
 * found another holder); rejects when its stdout ends without a report or `until` passes.
 */
export function launchSharedServer(argv: readonly string[], paths: LeasePaths, until: number): Promise<LaunchReport> {
  const log = openLog(paths.log);
  // cwd "/": a daemon must not pin the folder (or mount) some worker happened to start in.
  const child = spawn("setsid", ["--fork", ...argv], { cwd: "/", stdio: ["ignore", "pipe", log] });
  closeSync(log);
  return new Promise<LaunchReport>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => finish(new Error(`the shared server did not report within its deadline (log: ${paths.log})`)),
      Math.max(0, until - Date.now()),
    );
    let settled = false;
    const finish = (outcome: Error | LaunchReport): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A spawn that failed for want of resources has no stdout: its 'error' ends here too.
      child.stdout?.removeAllListeners();
      child.stdout?.destroy();
      child.removeAllListeners();
      child.on("error", () => {});
      child.unref();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    child.once("error", (error) => finish(new Error(`cannot start the shared server: ${error.message}`)));
    // `setsid` exits at once; the server holds our pipe until it has reported (or died).
    child.stdout?.once("end", () => finish(new Error(`the shared server exited before reporting (log: ${paths.log})`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const newline = output.indexOf("\n");
      if (newline < 0) return;
      finish(parseReport(output.slice(0, newline)));
    });
  });
}

/** The line a shared server writes for its launcher. */
export function formatReport(report: LaunchReport): string {
  return JSON.stringify(report) + "\n";
}

function parseReport(line: string): LaunchReport | Error {
  try {
    const value = JSON.parse(line) as { lease?: unknown };
    const lease = LeaseSchema.safeParse(value.lease);
    if (lease.success) return { lease: lease.data };
  } catch {
    // Falls through to the error below.
  }
  return new Error(`the shared server reported something unexpected: ${line.slice(0, 200)}`);
}

/**
 * The log, opened to append, and cut back to nothing first once it has grown past its bound: both
 * on the one descriptor, opened without following a symlink and refused unless it is this user's
 * own file, so neither the writes nor the cut can reach another file through a planted link.
 */
function openLog(path: string): number {
  const fd = openOwnForAppend(path);
  if (fstatSync(fd).size > MAX_LOG_BYTES) {
    try {
      ftruncateSync(fd, 0);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  return fd;
}
