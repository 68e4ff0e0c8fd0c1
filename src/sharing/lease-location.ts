import { createHash } from "node:crypto";
import { join } from "node:path";
import { runtimeFolder } from "../config/runtime-folder.js";

/** The files of one config's lease, in the per-user runtime folder. */
export interface LeasePaths {
  readonly dir: string;
  /** Who serves this config now (JSON, mode 0600); removed when that server ends. */
  readonly lease: string;
  /**
   * flock target guarding every rewrite and removal of a lease: the folder itself, so that no
   * lock file is ever left behind, and a holder may tidy other configs' dead leases too.
   */
  readonly lock: string;
  /** The shared servers' stderr, one file for the folder, cut back once it passes 1 MiB. */
  readonly log: string;
}

/**
 * Where the lease of a config lives: in the runtime folder (`runtimeFolder`), never in a workspace
 * or beside a config. One config, one lease: the lease's name derives from the config's absolute
 * path.
 */
export function leasePaths(configPath: string, leaseDir: string | null, env: NodeJS.ProcessEnv = process.env): LeasePaths {
  const dir = runtimeFolder(leaseDir, env);
  const stem = "bridge-" + createHash("sha256").update(configPath).digest("hex").slice(0, 16);
  return { dir, lease: join(dir, `${stem}.lease`), lock: dir, log: join(dir, "shared-servers.log") };
}
