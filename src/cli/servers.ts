import { packageRoot } from "../config/package-root.js";
import { toolCacheDir } from "../config/tool-cache.js";
import { listServers, type ServerListing } from "../install/server-listing.js";
import { loadShippedServers } from "../install/shipped-servers.js";
import type { STATUS_FORMATS } from "./parse-args.js";

/**
 * `lspmcp servers [--format text|json]`: every shipped profile with its pin, whether it is
 * installed here (and where) or why not, how it installs and what it needs. Exit 0.
 */
export async function servers(format: (typeof STATUS_FORMATS)[number]): Promise<number> {
  const listing = await listServers(await loadShippedServers(packageRoot()), {
    packageRoot: packageRoot(),
    searchPath: process.env.PATH ?? "",
    env: process.env,
  });
  process.stdout.write(format === "json" ? `${JSON.stringify({ tool_cache: toolCacheDir(), servers: listing }, null, 2)}\n` : renderText(listing));
  return 0;
}

/** Two lines per server: name, pin, state and how it installs, aligned; then its languages and where it is or what to run. */
function renderText(listing: readonly ServerListing[]): string {
  const rows = listing.map((server) => [server.name, server.version, server.installed ? "installed" : "missing", server.how]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = listing.map((server, index) => {
    const head = rows[index]!.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join("  ");
    const needs = server.needs.length > 0 ? `; needs ${server.needs.join(", ")}` : "";
    const state = server.installed ? `at ${server.where}` : `${server.why}; install: ${server.install}`;
    return `${head}\n    ${server.languages.join(", ")}${needs}; ${state}\n`;
  });
  const missing = listing.filter((server) => !server.installed).length;
  return `${lines.join("")}${listing.length} servers, ${missing} missing; tool cache: ${toolCacheDir()}\n`;
}
