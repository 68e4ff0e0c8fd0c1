import type { LogLevel as Level, Logger } from "../contract/logger.js";
import { escapeText } from "../contract/escape-text.js";

const RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * The bridge's logger: stderr only (stdout is the MCP transport in `serve` and the report in
 * `check`). `LSPMCP_LOG=json` gives one JSON object per line; `LSPMCP_LOG_LEVEL` sets the floor.
 */
export function createStderrLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  const json = env.LSPMCP_LOG === "json";
  const floor = RANK[(env.LSPMCP_LOG_LEVEL as Level | undefined) ?? "info"] ?? RANK.info;
  const write = (level: Level, message: string, fields: Record<string, unknown> = {}): void => {
    if (RANK[level] < floor) return;
    const line = json
      ? JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })
      : `lspmcp ${level}: ${message}${Object.keys(fields).length > 0 ? " " + JSON.stringify(fields) : ""}`;
    // A server's stderr and a checkout's paths reach the log: shown escaped, one line each.
    process.stderr.write(`${json ? line : escapeText(line)}\n`);
  };
  return {
    enabled: (level) => RANK[level] >= floor,
    debug: (message, fields) => write("debug", message, fields),
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
  };
}
