import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The per-user runtime folder of CONTRACT §2, where lspmcp keeps what lives only while it runs
 * (the shared servers' leases and log, the snapshots of `since`): `leaseDir` when configured, else
 * `$XDG_RUNTIME_DIR/lspmcp` (a per-user tmpfs made for exactly this), else `lspmcp-UID` in the
 * system temp folder — never in a workspace or beside a config.
 */
export function runtimeFolder(leaseDir: string | null, env: NodeJS.ProcessEnv = process.env): string {
  return leaseDir ?? (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "lspmcp") : join(systemTemp(env), `lspmcp-${process.getuid?.() ?? "user"}`));
}

// What os.tmpdir() answers on Linux, but read from `env` so that callers and tests can pass theirs.
function systemTemp(env: NodeJS.ProcessEnv): string {
  const temp = env.TMPDIR?.replace(/\/+$/, "");
  return temp ? temp : "/tmp";
}

/**
 * Makes sure the runtime folder `dir` exists (mode 0700), is this user's and open to nobody else,
 * is a folder and not a symlink to one, and takes a durable write; throws with the reason when
 * not (for `serve`: "run standalone"). In the shared temp folder this is what keeps another user
 * from planting the folder first, or a link to a folder of theirs.
 */
export function prepareRuntimeFolder(dir: string): void {
  makeFolder(dir);
  // lstat: a symlink is judged as itself, not as the folder it names.
  const folder = lstatSync(dir);
  if (folder.isSymbolicLink()) throw new Error(`${dir} is a symlink; lspmcp's runtime folder must be a folder of its own`);
  if (!folder.isDirectory()) throw new Error(`${dir} is not a folder`);
  // Like ssh with ~/.ssh: a folder someone else could write in could hold a lease they planted,
  // naming a server of theirs that every agent here would then talk to.
  if (folder.uid !== process.getuid?.()) throw new Error(`${dir} belongs to uid ${folder.uid}, not to this user`);
  if ((folder.mode & 0o077) !== 0)
    throw new Error(`${dir} is open to others (mode ${(folder.mode & 0o777).toString(8)}); lspmcp's runtime folder must be mode 0700`);
  // A new name each time: created exclusively, never through a link, never a stale probe's.
  const probe = join(dir, `.write-probe-${process.pid}-${randomBytes(4).toString("hex")}`);
  const fd = openSync(probe, "wx", 0o600);
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
