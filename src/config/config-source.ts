import { resolve } from "node:path";
import { loadDefaultConfig } from "./default-config.js";
import { discoverConfig } from "./discover-config.js";
import { loadConfig, type LoadOptions } from "./load-config.js";
import type { ConfigSource, ResolvedConfig } from "./types.js";

/** The source a command uses: `--config FILE` when given, else what discovery finds from `cwd`. */
export function configSourceFor(configArg: string | null, cwd: string = process.cwd()): ConfigSource {
  return configArg === null ? discoverConfig(cwd) : { kind: "file", path: resolve(cwd, configArg) };
}

/** Loads a file or plans and resolves the embedded default; both reject with ConfigInvalid. */
export function loadConfigSource(source: ConfigSource, options: LoadOptions = {}): Promise<ResolvedConfig> {
  return source.kind === "file" ? loadConfig(source.path, options) : loadDefaultConfig(source.root, options);
}

/**
 * One line naming the configuration in use (CONTRACT §2): the file, or the embedded default with
 * the servers it chose and those it left out, why, and how to install them.
 */
export function describeConfig(config: ResolvedConfig): string {
  const source = config.source;
  if (source.kind === "file") return `config: ${source.path}`;
  const servers = config.servers.map((server) => server.name).join(", ");
  const left = config.omitted.map((omitted) => `; left out ${omitted.server}: ${omitted.reason} (install: ${omitted.install})`).join("");
  return `config: embedded default for ${source.root} (no bridge.toml or .lspmcp.toml found): servers ${servers}${left}`;
}
