/** The server's name and version, sent in `serverInfo`; `servers/maude.toml` pins this version. */
export const SERVER_NAME = "lspmcp-maude-server";
export const SERVER_VERSION = "0.1.0";
