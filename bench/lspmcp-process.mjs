// How the benches start lspmcp: as MCP clients do (docs/mcp-clients.md), the built entry run as a
// program, whose `#!` line gives node the lean heap flag, with a minimal environment.
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/**
 * The built `lspmcp` entry (`npm run build`). The benches run it as a program (`timed(MAIN, […])`),
 * as a user's `lspmcp check` runs: through its `#!` line and the heap flags it gives node, which
 * cost a many-file run garbage collection that `node MAIN` would not show.
 */
export const MAIN = fileURLToPath(new URL("../dist/lspmcp/main.js", import.meta.url));

/**
 * A stdio transport to `lspmcp ...args`; `logLevel` is its LSPMCP_LOG_LEVEL, `stderr` as the SDK
 * takes it, `env` more variables (the soak's heap probe).
 */
export function lspmcpTransport(args, { logLevel = "warn", stderr = "ignore", env = {} } = {}) {
  return new StdioClientTransport({
    command: MAIN,
    args,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", LSPMCP_LOG_LEVEL: logLevel, ...env },
    stderr,
  });
}
