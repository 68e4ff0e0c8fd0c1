import { readFile } from "node:fs/promises";
import { replaceFile } from "../../config/own-files.js";
import { z } from "zod";
import { BridgeError } from "../../contract/errors.js";
import type { Baseline } from "./report.js";

// Only what matching needs is checked, so a report from an older lspmcp with extra keys still reads.
const BaselineSchema = z.object({ items: z.array(z.object({ fingerprint: z.string().min(1) })) });

/**
 * Reads a baseline: an earlier `check --format json` report (or one written by
 * `--write-baseline`). A missing or malformed file is `InvalidArguments` (exit 2), since a gate
 * that silently ignored its baseline would fail on every old finding, or pass on new ones.
 */
export async function readBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new BridgeError("InvalidArguments", `cannot read baseline ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { path });
  }
  let parsed: z.infer<typeof BaselineSchema>;
  try {
    parsed = BaselineSchema.parse(JSON.parse(text));
  } catch {
    throw new BridgeError("InvalidArguments", `baseline ${path} is not a json report of lspmcp check (items[].fingerprint)`, { path });
  }
  return parsed.items.map((item) => item.fingerprint);
}

/**
 * Writes `json` (a `formatJson` report) as the next baseline: aside and renamed over it, so that a
 * symlink committed under the baseline's name is replaced, never written through.
 */
export async function writeBaseline(path: string, json: string): Promise<void> {
  try {
    replaceFile(path, json, 0o644);
  } catch (error) {
    throw new BridgeError("InvalidArguments", `cannot write baseline ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { path });
  }
}
