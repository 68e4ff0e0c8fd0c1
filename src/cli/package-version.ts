import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../config/package-root.js";

/** lspmcp's own version, from its package.json (one source of truth for --version and MCP). */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}
