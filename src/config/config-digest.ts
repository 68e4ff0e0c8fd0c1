import { createHash } from "node:crypto";
import type { ResolvedConfig } from "./types.js";

/**
 * A digest of the loaded configuration (profiles merged, paths absolute): equal only for two
 * configurations that would start the very same sessions. Two lspmcp processes share a server only
 * then, and a revision's kept answers are kept under it.
 */
export function configDigest(config: ResolvedConfig): string {
  return createHash("sha256").update(JSON.stringify(config)).digest("hex");
}
