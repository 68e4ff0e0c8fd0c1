import type { ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";

export interface ChildOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child's exit code and everything it wrote to its stdout and stderr pipes, once it has closed them. */
export function childOutput(child: ChildProcessByStdio<null, Readable, Readable>): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
