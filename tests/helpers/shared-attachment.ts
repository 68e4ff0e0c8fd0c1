// A shared-mode test must know that it ran shared: `serve` that cannot have the shared server
// falls back to sessions of its own with no more than a warning on its stderr, and a test of the
// shared path would then pass on the standalone one.
import { spawn } from "node:child_process";
import { expect } from "vitest";
import type { Bridge } from "./bridge.js";
import { childOutput } from "./child-output.js";
import { BRIDGE_MAIN } from "./paths.js";
import { pollUntil } from "./poll.js";
import { bridgeEnv } from "./tool-cache.js";

interface SharedStatus {
  shared: boolean;
  reason: string | null;
  server: { pid: number } | null;
  peers: { peer_pid: number | null }[];
}

/** How the bridges were started: their config (null: found from `cwd`, as theirs was) and the environment they were given. */
export interface Started {
  readonly config: string | null;
  readonly cwd?: string;
  readonly env?: Record<string, string>;
}

/** `lspmcp status --format json` for the bridges' config, with their environment. */
export async function sharedStatus(started: Started): Promise<SharedStatus> {
  const result = await childOutput(
    spawn(process.execPath, [BRIDGE_MAIN, "status", ...(started.config === null ? [] : ["--config", started.config]), "--format", "json"], {
      env: { ...bridgeEnv(), ...started.env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(started.cwd === undefined ? {} : { cwd: started.cwd }),
    }),
  );
  return JSON.parse(result.stdout) as SharedStatus;
}

/**
 * Asserts that the config's lease names a live shared server and that its peers are exactly
 * `bridges` (by pid): each attached to it, and no other. Call it once each bridge has answered a
 * tool call: a bridge that fell back to its own sessions never attaches, one that attached stays.
 * The status of a peer that has just attached may lag its first answer by a moment, hence the poll.
 */
export async function expectAttached(started: Started, bridges: readonly Pick<Bridge, "pid">[]): Promise<void> {
  const want = bridges.map((bridge) => bridge.pid).sort((a, b) => a - b);
  let last: SharedStatus | null = null;
  const matches = async (): Promise<boolean> => {
    last = await sharedStatus(started);
    const peers = last.peers.map((peer) => peer.peer_pid ?? -1).sort((a, b) => a - b);
    return last.shared && JSON.stringify(peers) === JSON.stringify(want);
  };
  await pollUntil(matches, 10_000, 200);
  const seen = last as SharedStatus | null;
  expect({ shared: seen?.shared, reason: seen?.reason, peers: seen?.peers.map((peer) => peer.peer_pid).sort((a, b) => (a ?? -1) - (b ?? -1)) }).toEqual({
    shared: true,
    reason: null,
    peers: want,
  });
}
