import { cpSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./paths.js";
import { tempDir } from "./temp.js";

/** A private copy of a fixture workspace, so tests may add links and odd files to it. */
export function copyFixtureWorkspace(name: string): string {
  const dir = tempDir(`lspmcp-${name}-`);
  const root = join(dir, name);
  cpSync(join(REPO, "tests/fixtures/workspaces", name), root, { recursive: true });
  return root;
}

/** A bridge.toml with the three real servers of the issue on one workspace. */
export function polyConfig(root: string, extra = ""): string {
  return `
[bridge]
max_sessions = 4
max_result_bytes = 32768
request_timeout_ms = 60000

[[server]]
name = "typescript"
profile = "typescript"

[[server]]
name = "pyright"
profile = "pyright"

[[server]]
name = "clangd"
profile = "clangd"

[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ["typescript", "pyright", "clangd"]
${extra}`;
}
