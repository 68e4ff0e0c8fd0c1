import { fileURLToPath } from "node:url";

/** The command that runs the shared server of `configPath`: this very lspmcp build, by absolute paths. */
export function sharedServerArgv(configPath: string): string[] {
  return [process.execPath, fileURLToPath(new URL("./main.js", import.meta.url)), "shared-server", "--config", configPath];
}
