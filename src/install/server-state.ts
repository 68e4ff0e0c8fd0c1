import { existsSync } from "node:fs";
import { join } from "node:path";
import { resolveProfileExecutable } from "../config/resolve-executable.js";
import { expandToolCache, toolCacheDir, toolCacheFolder } from "../config/tool-cache.js";
import { readReceipt } from "./install-receipt.js";
import { checkPin } from "./reported-version.js";
import type { ShippedServer } from "./shipped-servers.js";

/** Whether a shipped server can run here, and where it is; or why not. */
type ServerState = { readonly installed: true; readonly where: string } | { readonly installed: false; readonly why: string };

/** Where to look: the package root (profiles' relative paths), PATH, the environment (the tool cache). */
export interface StateContext {
  readonly packageRoot: string;
  readonly searchPath: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The state of one shipped server. A tool-cache server is installed when its folder holds its
 * command and a receipt of the pinned version (an install without one, as the earlier setup
 * script left them, has its version command run instead); any other server when its command,
 * version command and `needs` all resolve, as the embedded default would find them.
 */
export async function serverState(server: ShippedServer, context: StateContext): Promise<ServerState> {
  const cacheFolder = toolCacheFolder(server.command);
  if (cacheFolder !== null) return cachedState(server, cacheFolder, context);
  const commands = [server.command, server.versionCommand?.[0], ...(server.install.needs ?? [])];
  let where: string | null = null;
  for (const command of commands) {
    if (command === undefined) continue;
    const found = await resolveProfileExecutable(command, context.packageRoot, context.searchPath);
    if (!found.ok) return { installed: false, why: found.message };
    where ??= found.path;
  }
  return { installed: true, where: where ?? server.command };
}

async function cachedState(server: ShippedServer, cacheFolder: string, context: StateContext): Promise<ServerState> {
  const folder = join(toolCacheDir(context.env), cacheFolder);
  const command = expandToolCache(server.command, context.env);
  if (!existsSync(command)) return { installed: false, why: `not in the tool cache (${folder})` };
  for (const need of server.install.needs ?? []) {
    const found = await resolveProfileExecutable(need, context.packageRoot, context.searchPath);
    if (!found.ok) return { installed: false, why: found.message };
  }
  const receipt = await readReceipt(folder);
  if (receipt !== null) {
    return receipt.version === server.version ? { installed: true, where: folder } : { installed: false, why: `${receipt.version} is installed in ${folder}` };
  }
  if (server.versionCommand === null) return { installed: false, why: `no receipt in ${folder}` };
  const pin = await checkPin(server.versionCommand, cacheFolder, folder, server.version, context.searchPath);
  return pin.ok ? { installed: true, where: folder } : { installed: false, why: pin.message };
}
