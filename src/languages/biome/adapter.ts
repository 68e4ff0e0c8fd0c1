import { whenLogged } from "../ready-log.js";
import { standardAdapter } from "../standard.js";
import type { ServerAdapter, ServerLink } from "../../lsp/server-adapter.js";

/**
 * The `window/logMessage` by which Biome says its start-up work is done: it loads its
 * configuration (and scans the project) in its `initialized` handler, then logs this and
 * republishes every open file. A file opened before then is checked for syntax only, and its
 * empty publish could come before the scan's progress began (seen under load).
 */
export const BIOME_READY_LOG = "Server initialized with PID";

/**
 * Biome: no document is sent before {@link BIOME_READY_LOG}, and it publishes an empty list while
 * it scans the project, then the real one, so only a publish (or pull answer) made with no
 * work-done progress running settles (the "after-progress" strategy).
 */
export function biomeAdapter(link: ServerLink): ServerAdapter {
  return {
    ...standardAdapter(),
    name: "biome",
    settle: "after-progress",
    whenReady: whenLogged(link, BIOME_READY_LOG),
  };
}
