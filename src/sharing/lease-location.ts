import { createHash } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";

/** The files of one config's lease, all in one folder. */
export interface LeasePaths {
  readonly dir: string;
  /** Who serves this config now (JSON, mode 0600). */
  readonly lease: string;
  /** flock target guarding every rewrite and removal of `lease`. */
  readonly lock: string;
  /** The shared server's stderr, written anew at each start. */
  readonly log: string;
}

/**
 * Where the lease of a config lives: `leaseDir` when configured, else `$XDG_RUNTIME_DIR/lspmcp`
 * (a per-user tmpfs made for exactly this), else `.lspmcp/` beside the config. One config, one
 * lease: the file names derive from the config's absolute path.
 */
export function leasePaths(configPath: string, leaseDir: string | null, env: NodeJS.ProcessEnv = process.env): LeasePaths {
  const dir = leaseDir ?? (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "lspmcp") : join(configPath, "..", ".lspmcp"));
  const stem = "bridge-" + createHash("sha256").update(configPath).digest("hex").slice(0, 16);
  return { dir, lease: join(dir, `${stem}.lease`), lock: join(dir, `${stem}.lock`), log: join(dir, `${stem}.log`) };
}

/**
 * Makes sure the lease folder exists (mode 0700), is this user's and writable by nobody else, and
 * takes a durable write; throws with the reason when not, which callers take as "run standalone".
 */
export function prepareLeaseDir(paths: LeasePaths): void {
  makeFolder(paths.dir);
  const folder = statSync(paths.dir);
  if (!folder.isDirectory()) throw new Error(`${paths.dir} is not a folder`);
  // Like ssh with ~/.ssh: a folder someone else could write in could hold a lease they planted,
  // naming a server of theirs that every agent here would then talk to.
  if (folder.uid !== process.getuid?.()) throw new Error(`${paths.dir} belongs to uid ${folder.uid}, not to this user`);
  if ((folder.mode & 0o022) !== 0) throw new Error(`${paths.dir} is writable by others (mode ${(folder.mode & 0o777).toString(8)})`);
  const probe = join(paths.dir, `.write-probe-${process.pid}`);
  const fd = openSync(probe, "w", 0o600);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    unlinkSync(probe);
  }
}

// mkdir -p, one level at a time: Node's own `recursive` mkdir never returns for a path under /proc.
function makeFolder(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(path) === path) throw error;
    makeFolder(dirname(path));
    mkdirSync(path, { mode: 0o700 });
  }
}
