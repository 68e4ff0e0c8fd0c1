import type { Writable } from "node:stream";

/**
 * Resolves once everything written to `stream` so far has been handed to the OS, or once the
 * stream can take no more (its reader went away: EPIPE, or it was destroyed). Never rejects.
 *
 * Why it is needed: on Linux, Node writes to a pipe without blocking, and what the pipe cannot
 * take yet waits in the process; `process.exit` drops it. A reader slower than the writer
 * (`| jq`, `| tee`) then gets the first 64 KiB of a report.
 */
export function flushed(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableFinished) return Promise.resolve();
  if (stream.writableEnded) {
    return new Promise((resolve) => {
      const settle = (): void => resolve();
      stream.once("finish", settle).once("close", settle).once("error", settle);
    });
  }
  // Writes reach the OS in order, so the callback of an empty write runs after every earlier one;
  // after a failure, it runs with the error.
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * Keeps a reader that closes early (`| head`) from turning into an uncaught EPIPE and a stack
 * trace: errors of stdout and stderr are taken as "nobody reads any more", and the process ends
 * quietly with its command's own exit code. Commands that need to react (serve) add listeners of
 * their own.
 */
export function tolerateClosedReaders(streams: readonly Writable[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on("error", () => {});
}

/** Ends the process with `code` after stdout and stderr have been flushed (CONTRACT §2: every report reaches its reader whole). */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
