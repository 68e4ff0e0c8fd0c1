import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** A bridge.toml with the navigation fixture (`tests/fixtures/workspaces/nav`) served by `servers` (profile names). */
export function navConfig(root: string, servers: readonly string[], bridge = "request_timeout_ms = 90000"): string {
  return `
[bridge]
${bridge}
${servers.map((name) => `\n[[server]]\nname = "${name}"\nprofile = "${name}"\n`).join("")}
[[workspace]]
name = "nav"
root = ${JSON.stringify(root)}
servers = ${JSON.stringify(servers)}
`;
}

/** Every file under `root` with its bytes and mtime, to prove that nothing was written. */
export function snapshotFiles(root: string): Map<string, { bytes: string; mtimeMs: number }> {
  const out = new Map<string, { bytes: string; mtimeMs: number }>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(path, { bytes: readFileSync(path).toString("base64"), mtimeMs: statSync(path).mtimeMs });
  }
  return out;
}

/**
 * A bridge.toml with one workspace served by shipped profiles, each as a server of the same name.
 * `overrides` adds keys to a server's table (e.g. `settings = {}`); `extra` goes into the workspace.
 */
export function profilesConfig(
  root: string,
  profiles: readonly string[],
  options: { timeoutMs?: number; overrides?: Record<string, string>; extra?: string } = {},
): string {
  const servers = profiles.map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n${options.overrides?.[name] ?? ""}\n`).join("\n");
  return `
[bridge]
max_sessions = ${profiles.length}
request_timeout_ms = ${options.timeoutMs ?? 120000}

${servers}
[[workspace]]
name = "langs"
root = ${JSON.stringify(root)}
servers = ${JSON.stringify(profiles)}
${options.extra ?? ""}`;
}
