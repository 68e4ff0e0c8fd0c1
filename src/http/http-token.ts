import { randomBytes } from "node:crypto";
import { openSync, readFileSync, statSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { BridgeError } from "../contract/errors.js";
import { prepareRuntimeFolder } from "../config/runtime-folder.js";

/** The token file `serve --http` creates when none is given, in the runtime folder. */
export const HTTP_TOKEN_FILE = "http-token";

/**
 * The bearer token every HTTP request must carry: read from `tokenFile` when given, else from the
 * runtime folder's `http-token`, created (mode 0600, 32 random bytes in hex) the first time, so a
 * client registered once keeps working across restarts. A token file others may read is refused.
 */
export function httpToken(tokenFile: string | null, runtimeDir: string): { token: string; path: string } {
  const path = tokenFile ?? join(runtimeDir, HTTP_TOKEN_FILE);
  if (tokenFile === null) {
    prepareRuntimeFolder(runtimeDir);
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
    if ((statSync(path).mode & 0o077) !== 0) throw new BridgeError("InvalidArguments", `the token file ${path} is readable by others; make it mode 0600`, {});
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    if (error instanceof BridgeError) throw error;
    throw new BridgeError("InvalidArguments", `cannot read the token file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {});
  }
  if (text.length < 16 || /\s/.test(text)) throw new BridgeError("InvalidArguments", `the token in ${path} must be one word of at least 16 characters`, {});
  return { token: text, path };
}
