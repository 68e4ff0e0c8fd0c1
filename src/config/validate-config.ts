import { BridgeError } from "../contract/errors.js";
import { loadConfigSource } from "./config-source.js";
import type { LoadOptions } from "./load-config.js";
import type { ConfigSource } from "./types.js";
import { formatProblem, type ConfigProblem } from "./problems.js";

/** What `lspmcp validate` prints, and whether it exits 0 (ok) or 2. */
export interface ValidateResult {
  readonly ok: boolean;
  /** Ends with a newline. Invalid: one `KEY.PATH: message` line per problem. Valid: one summary line. */
  readonly text: string;
}

/**
 * Validates a bridge.toml exactly as `serve` and `check` load it, and renders the outcome for a
 * terminal. Never rejects for an invalid configuration; only an internal failure propagates.
 */
export async function validateConfig(source: string | ConfigSource, options: LoadOptions = {}): Promise<ValidateResult> {
  try {
    const config = await loadConfigSource(typeof source === "string" ? { kind: "file", path: source } : source, options);
    const servers = config.servers.map((server) => server.name);
    const workspaces = config.workspaces.map((workspace) => workspace.name);
    const what = config.source.kind === "file" ? config.configPath : `embedded default for ${config.source.root}`;
    const omitted = config.omitted.map((left) => `left out ${left.server}: ${left.reason} (install: ${left.install})\n`);
    const text =
      `OK ${what}: ${plural(servers.length, "server")} (${servers.join(", ")}), ` +
      `${plural(workspaces.length, "workspace")} (${workspaces.join(", ")})\n` +
      omitted.join("");
    return { ok: true, text };
  } catch (error) {
    if (!(error instanceof BridgeError) || error.code !== "ConfigInvalid") throw error;
    const problems = error.details.problems as ConfigProblem[];
    // The embedded default fails as a whole (nothing to serve), with its reason in the message.
    if (problems.length === 0) return { ok: false, text: `${error.message}\n` };
    return { ok: false, text: problems.map((problem) => `${formatProblem(problem)}\n`).join("") };
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
