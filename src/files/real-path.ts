import { realpathSync } from "node:fs";

/**
 * The path with every symlink resolved, exactly as `realpathSync` gives it (throwing as it
 * throws). realpath(3) answers in one call where the JS version lstats every component, on every
 * tool call; where realpath(3) fails (a link to `/proc/self/fd/0`, whose target is a pipe, not a
 * path) the JS version decides, so what the boundary check sees never changes.
 */
export function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return realpathSync(path);
  }
}
