import { createHash } from "node:crypto";
import type { ResolvedConfig } from "../config/types.js";

/**
 * A digest of the loaded configuration (profiles merged, paths absolute): two lspmcp processes
 * may share a server only when they would have started the very same sessions.
 */
export function configDigest(config: ResolvedConfig): string {
  return createHash("sha256").update(JSON.stringify(config)).digest("hex");
}
