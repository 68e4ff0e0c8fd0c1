import { BridgeError } from "../contract/errors.js";
import { describeTrust, judgeConfig, type TrustContext } from "./config-trust.js";
import { describeAdapterChoice } from "./known-servers.js";
import type { LoadOptions } from "./load-config.js";
import type { ConfigSource } from "./types.js";
import { formatProblem, type ConfigProblem } from "./problems.js";

/** What `lspmcp validate` prints, and whether it exits 0 (ok) or 2. */
export interface ValidateResult {
  readonly ok: boolean;
  /** Ends with a newline. Invalid: one `KEY.PATH: message` line per problem. Valid: one summary line. */
  readonly text: string;
}

/** A file named from outside any checkout: the user's own choice, so its trust is not needed. */
const NAMED_BY_USER: TrustContext = { fromCheckout: false, optIn: null };

/**
 * Validates a bridge.toml exactly as `serve` and `check` load it, and renders the outcome for a
 * terminal, with whether it may run (`context`: how the command came by it). An untrusted
 * configuration is reported, not refused: validating runs nothing of it, and it is how a user
 * reads what a checkout's file would run before trusting it. Never rejects for an invalid
 * configuration; only an internal failure propagates.
 */
export async function validateConfig(source: string | ConfigSource, context: TrustContext = NAMED_BY_USER, options: LoadOptions = {}): Promise<ValidateResult> {
  try {
    const { config, trust } = await judgeConfig(typeof source === "string" ? { kind: "file", path: source } : source, context, options);
    const servers = config.servers.map((server) => server.name);
    const workspaces = config.workspaces.map((workspace) => workspace.name);
    const what = config.source.kind === "file" ? config.configPath : `embedded default for ${config.source.root}`;
    const omitted = config.omitted.map((left) => `left out ${left.server}: ${left.reason} (install: ${left.install})\n`);
    const text =
      `OK ${what}: ${plural(servers.length, "server")} (${servers.join(", ")}), ` +
      `${plural(workspaces.length, "workspace")} (${workspaces.join(", ")})\n` +
      // Which rule each server's answers settle by, and how it was chosen.
      config.servers.map((server) => `rule of ${server.name}: ${describeAdapterChoice(server.adapter, server.adapter_chosen_by)}\n`).join("") +
      omitted.join("") +
      `${describeTrust(trust)}\n` +
      (trust.state === "untrusted" ? trust.programs.map((key) => `  ${key.path} = ${key.value}\n`).join("") : "");
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
