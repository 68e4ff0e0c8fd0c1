import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Why a request was refused, as an HTTP status and a message. */
interface Refusal {
  readonly status: number;
  readonly message: string;
}

/**
 * The shared server's request check, run before anything else reads a request:
 * - `Host` must name the loopback address it listens on (127.0.0.1 or localhost, with its port):
 *   a page that rebinds its own host name to 127.0.0.1 sends its own name and is refused;
 * - no `Origin` at all: lspmcp's peers are processes, never pages in a browser;
 * - `Authorization: Bearer TOKEN` with the lease's token (0600 in a 0700 folder), compared in
 *   constant time: another local user who finds the port still cannot talk to it.
 */
export function guardRequest(request: IncomingMessage, port: number, token: string): Refusal | undefined {
  const host = request.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return { status: 403, message: "Host not allowed" };
  if (request.headers.origin !== undefined) return { status: 403, message: "Origin not allowed" };
  const given = Buffer.from(request.headers.authorization ?? "", "utf8");
  const wanted = Buffer.from(`Bearer ${token}`, "utf8");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { status: 401, message: "Unauthorized" };
  return undefined;
}
