import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * lspmcp's per-user state folder, where what the user decided outlives a run (the configurations
 * they trusted): `$XDG_STATE_HOME/lspmcp`, or `~/.local/state/lspmcp`. A relative XDG_STATE_HOME
 * is ignored, as the XDG base directory specification asks.
 */
export function stateFolder(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".local", "state"), "lspmcp");
}
