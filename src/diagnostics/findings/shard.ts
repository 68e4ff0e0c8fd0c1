import { createHash } from "node:crypto";
import type { ResolvedTarget } from "../../targets/resolve-target.js";
import type { Shard } from "./shard-spec.js";

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
