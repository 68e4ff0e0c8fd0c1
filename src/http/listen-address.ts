/** Where `serve --http` listens. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * `HOST:PORT`, `[IPv6]:PORT` or a bare `PORT` (on loopback, the default: another machine
 * reaches the bridge only when its address is given on purpose); undefined when malformed.
 */
export function parseListenAddress(text: string): ListenAddress | undefined {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(text.trim());
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port > 65535) return undefined;
  const host = match[1] === undefined ? "127.0.0.1" : match[1].replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

/** A name or address of this machine only: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || bare === "::ffff:127.0.0.1";
}
