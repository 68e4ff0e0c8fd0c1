import { closeSync, constants, fstatSync, openSync, readFile, readSync } from "node:fs";
import { promisify } from "node:util";
import { BridgeError } from "../contract/errors.js";

/** Files larger than this are not sent to a language server at all. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/**
 * Files up to this size are read synchronously: four thread-pool round trips cost about 0.3 ms
 * of CPU a call against 13 µs for the same reads done in place, and a shared bridge does every
 * worker's reads on one thread. Larger files are read without blocking the event loop.
 */
const SYNC_READ_BYTES = 1024 * 1024;

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const readFd = promisify(readFile);

/**
 * Reads a source file as the server will see it: a regular file of UTF-8 text. A directory, a
 * FIFO or device, a binary file (NUL bytes) or invalid UTF-8 is `FileUnreadable`; a missing file
 * is `FileNotFound`. A FIFO is opened non-blocking so that no writer is ever waited for.
 */
/** `shownPath` is how errors name the file (the workspace-relative path the caller gave). */
export async function readSourceFile(absolutePath: string, shownPath: string): Promise<string> {
  let fd: number;
  try {
    fd = openSync(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new BridgeError("FileNotFound", `no such file: ${shownPath}`, { path: shownPath });
    }
    throw unreadable(shownPath, `cannot open it (${code ?? "error"})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw unreadable(shownPath, "it is a directory");
    if (!stat.isFile()) throw unreadable(shownPath, "it is not a regular file");
    if (stat.size > MAX_SOURCE_BYTES) throw unreadable(shownPath, `it is larger than ${MAX_SOURCE_BYTES} bytes`, { size: stat.size });
    const bytes = stat.size <= SYNC_READ_BYTES ? readToEndSync(fd, stat.size) : await readFd(fd);
    if (bytes.length > MAX_SOURCE_BYTES) throw unreadable(shownPath, `it is larger than ${MAX_SOURCE_BYTES} bytes`, { size: bytes.length });
    if (bytes.includes(0)) throw unreadable(shownPath, "it is binary (contains NUL bytes)");
    try {
      return UTF8.decode(bytes);
    } catch {
      throw unreadable(shownPath, "it is not valid UTF-8 text");
    }
  } finally {
    closeSync(fd);
  }
}

// Reads until end of file, not just `sizeHint` bytes: a file may grow between fstat and read, and
// some (in /proc) report size 0. Stops just past the size bound; the caller refuses that.
function readToEndSync(fd: number, sizeHint: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.max(sizeHint + 1, 4096));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > MAX_SOURCE_BYTES) break;
      const grown = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

function unreadable(path: string, why: string, extra: Record<string, unknown> = {}): BridgeError {
  return new BridgeError("FileUnreadable", `cannot read ${path}: ${why}`, { path, reason: why, ...extra });
}
