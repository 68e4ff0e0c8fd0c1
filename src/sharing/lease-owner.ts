import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { isAlive } from "../supervision/proc-table.js";
import type { LeasePaths } from "./lease-location.js";
import type { Lease } from "./lease-schema.js";
import { peerSocketPath } from "./peer-socket-path.js";

/**
 * Why the server a lease names cannot be spoken to, or null when it can: its owner process (pid
 * and start time) is alive, its peer socket beside the lease is a socket of this user's, and the
 * lease's port is one that very process listens on. Asked before anything is sent to the lease's
 * URL, which carries the lease's bearer token: once its owner is gone, anything (another user's
 * program included) may have taken the port and would read the token.
 */
export function leaseOwnerProblem(paths: LeasePaths, lease: Lease): string | null {
  if (!isAlive({ pid: lease.pid, startTime: lease.start_time })) return `its owner, pid ${lease.pid}, is gone`;
  let socket: string;
  try {
    socket = peerSocketPath(paths, lease.pid);
  } catch (error) {
    return (error as Error).message;
  }
  const stats = lstatSync(socket, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isSocket() || stats.uid !== process.getuid?.()) return `pid ${lease.pid} has no peer socket of this user's at ${socket}`;
  const port = Number(new URL(lease.url).port);
  if (!listensOn(lease.pid, port)) return `port ${port} is not held by pid ${lease.pid}`;
  return null;
}

/** Whether process `pid` holds the listening TCP socket on 127.0.0.1:`port` (read from /proc). */
function listensOn(pid: number, port: number): boolean {
  const inode = listenerInode(port);
  if (inode === undefined) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
    } catch {
      return false;
    }
  });
}

/** LISTEN, in /proc/net/tcp's `st` column. */
const TCP_LISTEN = "0A";
/** 127.0.0.1 as /proc/net/tcp writes it (the address's bytes in host order, x86: reversed). */
const LOOPBACK_HEX = "0100007F";

// The inode of the socket listening on 127.0.0.1:port, if any.
function listenerInode(port: number): string | undefined {
  let table: string;
  try {
    table = readFileSync("/proc/net/tcp", "utf8");
  } catch {
    return undefined;
  }
  const local = `${LOOPBACK_HEX}:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const line of table.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] === local && fields[3] === TCP_LISTEN && fields[9] !== undefined && fields[9] !== "0") return fields[9];
  }
  return undefined;
}
