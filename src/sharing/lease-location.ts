import { createHash } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";

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
 * Where the lease of a config lives (CONTRACT §2): `leaseDir` when configured, else
 * `$XDG_RUNTIME_DIR/lspmcp` (a per-user tmpfs made for exactly this), else `lspmcp-UID` in the
 * system temp folder — never in a workspace or beside a config. One config, one lease: the lease's
 * name derives from the config's absolute path.
 */
export function leasePaths(configPath: string, leaseDir: string | null, env: NodeJS.ProcessEnv = process.env): LeasePaths {
  const dir = leaseDir ?? (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "lspmcp") : join(systemTemp(env), `lspmcp-${process.getuid?.() ?? "user"}`));
  const stem = "bridge-" + createHash("sha256").update(configPath).digest("hex").slice(0, 16);
  return { dir, lease: join(dir, `${stem}.lease`), lock: dir, log: join(dir, "shared-servers.log") };
}

// What os.tmpdir() answers on Linux, but read from `env` so that callers and tests can pass theirs.
function systemTemp(env: NodeJS.ProcessEnv): string {
  const temp = env.TMPDIR?.replace(/\/+$/, "");
  return temp ? temp : "/tmp";
}

/**
 * Makes sure the lease folder exists (mode 0700), is this user's and writable by nobody else, and
 * takes a durable write; throws with the reason when not, which callers take as "run standalone".
 * In the shared temp folder this is what keeps another user from planting the folder first.
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
