import { fileURLToPath } from "node:url";
import type { ResolvedConfig } from "../config/types.js";

/**
 * The command that runs the shared server of `config`: this very lspmcp build, by absolute paths,
 * given the config file, or the root of the embedded default (which it plans again for itself).
 */
export function sharedServerArgv(config: ResolvedConfig): string[] {
  const source = config.source.kind === "file" ? ["--config", config.source.path] : ["--default-root", config.source.root];
  return [process.execPath, fileURLToPath(new URL("./main.js", import.meta.url)), "shared-server", ...source];
}
