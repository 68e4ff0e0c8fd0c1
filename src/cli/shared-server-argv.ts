import { fileURLToPath } from "node:url";

/**
 * The command that runs the shared server of `configPath`: this very lspmcp build, by absolute
 * paths, under the node flags of this process (a `serve` run with `--cpu-prof` or a heap limit
 * passes them on to the server it launches).
 */
export function sharedServerArgv(configPath: string): string[] {
  return [process.execPath, ...process.execArgv, fileURLToPath(new URL("./main.js", import.meta.url)), "shared-server", "--config", configPath];
}
