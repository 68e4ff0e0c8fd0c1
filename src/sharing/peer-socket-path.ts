import type { LeasePaths } from "./lease-location.js";

/** The longest path Linux binds a Unix domain socket to (`sun_path` is 108 bytes with its NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

/**
 * The Unix domain socket on which the shared server `pid` of this lease takes its attached peers:
 * beside the lease, in the same owner-only folder (a socket there is as private as the lease).
 * One per server, so a displaced server still serves its peers while its successor listens.
 * Throws when the path is too long to bind, which callers take as "the lease folder is not usable".
 */
export function peerSocketPath(paths: LeasePaths, pid: number): string {
  const path = paths.lease.replace(/\.lease$/, `.${pid}.sock`);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`the lease folder's path is too long for a Unix socket (${path}); set [shared] lease_dir to a shorter folder`);
  }
  return path;
}
