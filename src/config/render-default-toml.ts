import { relative } from "node:path";
import type { DefaultPlan } from "./default-plan.js";
import { describeRoots } from "./config-source.js";

/** TOML's basic string: JSON's escaping is a subset of it for the text we write. */
const str = (value: string): string => JSON.stringify(value);
const list = (values: readonly string[]): string => `[${values.map(str).join(", ")}]`;

const BRIDGE_TABLE = [
  "# Relative paths resolve against this file's folder. Reference: docs/configuration.md.",
  "",
  "[bridge]",
  "max_sessions = 4            # live language servers at once",
  "max_result_bytes = 32768    # ceiling on any tool result, in UTF-8 bytes",
  "request_timeout_ms = 30000  # per LSP request; also the diagnostics settle deadline",
  "start_timeout_ms = 120000   # a server's start; its first load does not count against requests",
  "",
];

/** What a skeleton's [[server]] holds until the user fills it in; `validate` refuses it as a command and a version. */
const FILL_IN = "FILL-IN";

/**
 * The skeleton `lspmcp init` writes where no shipped profile serves the folder: one `[[server]]`
 * with every key a server needs, its values to fill in, and the workspace naming it. It loads as
 * TOML, and `validate` refuses it until the server is described (docs/adding-a-server.md).
 */
export function renderSkeletonToml(workspace: string, schemaPath: string): string {
  return [
    `#:schema ${schemaPath}`,
    "# lspmcp configuration, written by `lspmcp init` as a skeleton: no language of a shipped profile",
    "# occurs here. Fill in the [[server]] below with the language server you want to serve",
    `# (every ${FILL_IN}; docs/adding-a-server.md walks through one), then run \`lspmcp validate\`.`,
    ...BRIDGE_TABLE,
    "# The server: what it runs, the exact version it must report, and the files it claims.",
    "[[server]]",
    'name = "my-server"',
    `command = ${str(FILL_IN)}  # an absolute path, a path relative to this file, or a name on PATH`,
    '# args = ["--stdio"]     # many servers want ["--stdio"] or ["lsp"]',
    `version = ${str(FILL_IN)}  # the pin: a server reporting another version is refused`,
    `# version_command = [${str(FILL_IN)}, "--version"]  # the pin is checked against this argv's first line; without it, against serverInfo.version`,
    `languages = [{ id = ${str(FILL_IN)}, extensions = [".${FILL_IN}"] }]  # the LSP language id and the extensions it claims`,
    '# inherit_env = ["VIRTUAL_ENV"]  # variables of yours it needs (it gets PATH, HOME and LANG)',
    "",
    "[[workspace]]",
    `name = ${str(workspace)}`,
    'root = "."',
    'servers = ["my-server"]',
    `# exclude = ["build/**"]  # globs that \`lspmcp check\` skips`,
    "",
  ].join("\n");
}

/**
 * The embedded default as a commented bridge.toml for `lspmcp init` (CONTRACT §2): the `#:schema`
 * line for editors, each chosen profile with its pin spelled out (`version`, and the command it
 * runs in a comment), the servers left out as commented tables with why and how to install them,
 * and the workspace root relative to `dir` (the folder the file is written to). Loading the text
 * gives the same configuration as the embedded default of the same root.
 */
export function renderDefaultToml(
  plan: DefaultPlan,
  dir: string,
  schemaPath: string,
  /**
   * Which compiler a profile's server answers each of its project folders (relative to the root)
   * with, as a comment (its adapter's words); null: it runs as configured.
   */
  answering: (server: DefaultPlan["servers"][number], root: string, projects: readonly string[]) => string | null,
): string {
  const lines = [
    `#:schema ${schemaPath}`,
    "# lspmcp configuration, written by `lspmcp init` from the embedded default: one workspace and",
    "# the shipped profiles whose languages occur in it. Edit freely; `lspmcp validate` checks it.",
    ...BRIDGE_TABLE,
  ];
  for (const server of plan.servers) {
    const profile = server.profile;
    lines.push(
      `# ${server.name}: serves ${server.serves.join(", ")} here.`,
      `# The profile runs ${[profile.command ?? "?", ...(profile.args ?? [])].join(" ")}` +
        (profile.version_command
          ? `; the pin is checked against \`${profile.version_command.join(" ")}\`.`
          : "; the pin is checked against serverInfo.version."),
      ...[answering(server, plan.root, server.projects ?? [])].filter((line) => line !== null),
      ...(server.projects !== null && server.projects.length > 0
        ? [`# Its projects, found at each start (each file is answered under the one that holds it): ${describeRoots(server.projects)}.`]
        : []),
      "[[server]]",
      `name = ${str(server.name)}`,
      `profile = ${str(server.name)}`,
      `version = ${str(profile.version ?? "")}  # the pin: a server reporting another version is refused`,
      "",
    );
  }
  for (const omitted of plan.omitted) {
    lines.push(
      `# ${omitted.server} is left out: ${omitted.reason}.`,
      `# Install: ${omitted.install}; then uncomment (and add it to the workspace's servers).`,
      "# [[server]]",
      `# name = ${str(omitted.server)}`,
      `# profile = ${str(omitted.server)}`,
      ...(omitted.pin === undefined ? [] : [`# version = ${str(omitted.pin)}`]),
      "",
    );
  }
  const root = relative(dir, plan.root) || ".";
  lines.push("[[workspace]]", `name = ${str(plan.workspace)}`, `root = ${str(root)}`, `servers = ${list(plan.servers.map((server) => server.name))}`);
  const choices = Object.entries(plan.defaultServer);
  if (choices.length > 0) {
    lines.push(`# Extensions claimed by two servers: this one answers (diagnostics asks both).`);
    lines.push(`default_server = { ${choices.map(([extension, server]) => `${str(extension)} = ${str(server)}`).join(", ")} }`);
  }
  lines.push(`# exclude = ["build/**"]  # globs that \`lspmcp check\` skips`, "");
  return lines.join("\n");
}
