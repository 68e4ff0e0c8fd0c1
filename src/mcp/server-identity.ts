/**
 * What lspmcp says of itself in `initialize`, in one place: the MCP server (standalone and
 * shared) is built from it, and an attached `serve` answers `initialize` from it without waiting
 * for the shared server, byte for byte as the SDK's server would.
 */
export const SERVER_CAPABILITIES = { tools: { listChanged: false } } as const;

export const SERVER_INSTRUCTIONS =
  "lspmcp answers read-only questions about source files from real language servers: diagnostics, hover, document and workspace symbols. Positions are 1-based line and 1-based column in Unicode code points.";

/**
 * The protocol versions the MCP SDK's server accepts (`SUPPORTED_PROTOCOL_VERSIONS` of the pinned
 * SDK, newest first; a unit test keeps the two equal). Copied so that an attached `serve` need not
 * load the SDK's schemas to answer `initialize`.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/** The `initialize` result for a client that asked for `requested`, as the SDK's `Server` answers it. */
export function initializeResult(requested: unknown, version: string): Record<string, unknown> {
  const protocolVersion = typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : SUPPORTED_PROTOCOL_VERSIONS[0];
  return { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: { name: "lspmcp", version }, instructions: SERVER_INSTRUCTIONS };
}
