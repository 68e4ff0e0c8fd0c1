import { createHash } from "node:crypto";
import { BridgeError } from "../../contract/errors.js";
import type { ResolvedTarget } from "../../calls/resolve-target.js";

/** `--shard K/N`: this run checks share `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parses "K/N" with 1 ≤ K ≤ N; anything else is `InvalidArguments` (exit 2). */
export function parseShard(value: string): Shard {
  const match = /^([0-9]+)\/([0-9]+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count || count > 1_000_000) {
    throw new BridgeError("InvalidArguments", `--shard must be K/N with 1 <= K <= N (got "${value}")`, { shard: value });
  }
  return { index, count };
}

/**
 * Whether a target falls in the shard: by a hash of its workspace and path, not by its position,
 * so a file keeps its shard when others are added or removed, and every server of a file lands in
 * the same shard. The N shards partition the files: each is in exactly one.
 */
export function inShard(target: ResolvedTarget, shard: Shard): boolean {
  return pathInShard(target.workspace.name, target.file.path, shard);
}

/** `inShard` for a path of a workspace (a file of a revision's snapshot, by its path now). */
export function pathInShard(workspace: string, path: string, shard: Shard): boolean {
  const digest = createHash("sha256").update(`${workspace}\0${path}`).digest();
  return digest.readUInt32BE(0) % shard.count === shard.index - 1;
}
