import { BridgeError } from "../contract/errors.js";
import { describeTrust, judgeConfig, type TrustContext } from "./config-trust.js";
import { describeAdapterChoice } from "./known-servers.js";
import type { LoadOptions } from "./load-config.js";
import type { Answering } from "./config-source.js";
import type { ProjectRootsFinder } from "./project-roots.js";
import type { ConfigSource, ResolvedConfig } from "./types.js";
import { formatProblem, type ConfigProblem } from "./problems.js";
import { escapeLines, escapeText } from "../contract/escape-text.js";

/** What `lspmcp validate` prints, and whether it exits 0 (ok) or 2. */
interface ValidateResult {
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
export async function validateConfig(
  source: string | ConfigSource,
  projectRoots: ProjectRootsFinder,
  context: TrustContext = NAMED_BY_USER,
  options: LoadOptions = {},
  answering: Answering | null = null,
): Promise<ValidateResult> {
  try {
    const { config, trust } = await judgeConfig(typeof source === "string" ? { kind: "file", path: source } : source, context, projectRoots, options);
    const compilers = answering === null ? [] : await describeCompilers(config, answering, projectRoots);
    const servers = config.servers.map((server) => server.name);
    const workspaces = config.workspaces.map((workspace) => workspace.name);
    const what = config.source.kind === "file" ? config.configPath : `embedded default for ${config.source.root}`;
    const omitted = config.omitted.map((left) => `left out ${left.server}: ${left.reason} (install: ${left.install})\n`);
    const text =
      `OK ${what}: ${plural(servers.length, "server")} (${servers.join(", ")}), ` +
      `${plural(workspaces.length, "workspace")} (${workspaces.join(", ")})\n` +
      // Which rule each server's answers settle by, and how it was chosen.
      config.servers
        .map(
          (server) => `rule of ${server.name}: ${describeAdapterChoice(server.adapter, server.adapter_chosen_by)}
`,
        )
        .join("") +
      compilers.join("") +
      omitted.join("") +
      `${describeTrust(trust)}\n` +
      (trust.state === "untrusted" ? trust.programs.map((key) => `  ${key.path} = ${key.value}\n`).join("") : "");
    return { ok: true, text: escapeLines(text) };
  } catch (error) {
    if (!(error instanceof BridgeError) || error.code !== "ConfigInvalid") throw error;
    const problems = error.details.problems as ConfigProblem[];
    // The embedded default fails as a whole (nothing to serve), with its reason in the message.
    if (problems.length === 0) return { ok: false, text: `${escapeLines(error.message)}\n` };
    return { ok: false, text: problems.map((problem) => `${escapeText(formatProblem(problem))}\n`).join("") };
  }
}

/**
 * "compilers: typescript answers web with TypeScript 5.9.3 (its own: web/node_modules/typescript)…"
 * for each server whose adapter chooses the compiler of each project, over the project folders
 * found under each workspace now (reading files only: nothing of the configuration runs).
 */
async function describeCompilers(config: ResolvedConfig, answering: Answering, projectRoots: ProjectRootsFinder): Promise<string[]> {
  const lines: string[] = [];
  for (const workspace of config.workspaces) {
    for (const server of config.servers) {
      if (!workspace.servers.includes(server.name)) continue;
      const folders = server.projects === null ? [] : await projectRoots(workspace.root, server.projects);
      const clause = answering(server, workspace, folders);
      if (clause !== null) lines.push(`compilers: ${server.name}${config.workspaces.length > 1 ? ` in ${workspace.name}` : ""} ${clause}\n`);
    }
  }
  return lines;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
