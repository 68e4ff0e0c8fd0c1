import { open } from "node:fs/promises";
import { constants } from "node:fs";
import { BridgeError } from "../contract/errors.js";

/** Files larger than this are not sent to a language server at all. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a source file as the server will see it: a regular file of UTF-8 text. A directory, a
 * FIFO or device, a binary file (NUL bytes) or invalid UTF-8 is `FileUnreadable`; a missing file
 * is `FileNotFound`. A FIFO is opened non-blocking so that no writer is ever waited for.
 */
export async function readSourceFile(absolutePath: string, displayPath: string): Promise<string> {
  let handle;
  try {
    handle = await open(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new BridgeError("FileNotFound", `no such file: ${displayPath}`, { path: displayPath });
    }
    throw unreadable(displayPath, `cannot open it (${code ?? "error"})`);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw unreadable(displayPath, "it is a directory");
    if (!stat.isFile()) throw unreadable(displayPath, "it is not a regular file");
    if (stat.size > MAX_SOURCE_BYTES) throw unreadable(displayPath, `it is larger than ${MAX_SOURCE_BYTES} bytes`, { size: stat.size });
    const bytes = await handle.readFile();
    if (bytes.includes(0)) throw unreadable(displayPath, "it is binary (contains NUL bytes)");
    try {
      return UTF8.decode(bytes);
    } catch {
      throw unreadable(displayPath, "it is not valid UTF-8 text");
    }
  } finally {
    await handle.close();
  }
}

function unreadable(path: string, why: string, extra: Record<string, unknown> = {}): BridgeError {
  return new BridgeError("FileUnreadable", `cannot read ${path}: ${why}`, { path, reason: why, ...extra });
}
