import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { BridgeError } from "../contract/errors.js";
import { readOwnFile } from "../config/own-files.js";
import { prepareRuntimeFolder } from "../config/runtime-folder.js";

/** The token file `serve --http` creates when none is given, in the runtime folder. */
const HTTP_TOKEN_FILE = "http-token";

/**
 * The bearer token every HTTP request must carry: read from `tokenFile` when given, else from the
 * runtime folder's `http-token`, created (mode 0600, 32 random bytes in hex) the first time, so a
 * client registered once keeps working across restarts. lspmcp knows that file as one it made for
 * this user by where it lies: the runtime folder passes `prepareRuntimeFolder` first (this user's,
 * mode 0700, not a symlink), so no one else could have put a file there, and a checkout cannot
 * move that folder without being trusted. Either file must be this user's own regular file, read
 * without following a symlink, with one name, and readable by nobody else.
 */
export function httpToken(tokenFile: string | null, runtimeDir: string): { token: string; path: string } {
  const path = tokenFile ?? join(runtimeDir, HTTP_TOKEN_FILE);
  if (tokenFile === null) {
    try {
      prepareRuntimeFolder(runtimeDir);
    } catch (error) {
      throw new BridgeError("InvalidArguments", `cannot keep the token in the runtime folder: ${(error as Error).message}`, {});
    }
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
      closeSync(fd);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  let text: string;
  try {
    text = readOwnFile(path, 0o600).trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BridgeError("InvalidArguments", `cannot use the token file: ${code !== undefined ? `${path}: ${code}` : (error as Error).message}`, {});
  }
  if (text.length < 16 || /\s/.test(text)) throw new BridgeError("InvalidArguments", `the token in ${path} must be one word of at least 16 characters`, {});
  return { token: text, path };
}
