import { BridgeError } from "../../contract/errors.js";

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
