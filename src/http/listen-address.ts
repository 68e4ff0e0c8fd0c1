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

/** An address that listens on every interface: `0.0.0.0`, `::`. */
export function isWildcardHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  return bare === "0.0.0.0" || bare === "::" || bare === "::0";
}

/**
 * The names a request's `Host` (and a page's `Origin`) may give, beyond this machine's loopback
 * names: the address listened on, unless it is every interface's, and the names the user gave.
 * Lower case, IPv6 without brackets.
 */
export function allowedHostNames(address: ListenAddress, given: readonly string[]): string[] {
  const names = [...(isLoopbackHost(address.host) || isWildcardHost(address.host) ? [] : [address.host]), ...given];
  return [...new Set(names.map((name) => name.replace(/^\[(.*)\]$/, "$1").toLowerCase()))];
}
