import { z } from "zod";
import { DEFAULT_SETTLE_QUIET_MS } from "../contract/quiet-window.js";
import { EmbeddedDefaultSchema } from "./embedded-default-schema.js";
import { InstallSchema } from "./install-schema.js";

/**
 * The zod schema of bridge.toml: the single source of truth for its keys, their types and
 * defaults. The JSON Schema (`config/bridge.schema.json`) and the key table of
 * `docs/configuration.md` are generated from it. Every object is strict: an unknown key is an error.
 *
 * Server fields carry no parse-time defaults because a `[[server]]` overrides its profile key by key:
 * a default filled in at parse time would silently replace the profile's value. Their defaults live
 * in {@link SERVER_DEFAULTS}, which the resolver applies after merging and the JSON Schema shows.
 */

/** Names of servers and workspaces: they are typed by agents in tool arguments, so keep them plain. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Profile names map to files `servers/NAME.toml`; the pattern keeps them inside that folder. */
const PROFILE_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

const name = (what: string) =>
  z
    .string()
    .regex(NAME_PATTERN, { message: `a ${what} name is letters, digits, ".", "_" or "-", starting with a letter or digit` })
    .describe(`Unique ${what} name, used in tool arguments.`);

const positiveInt = (fallback: number, description: string) => z.int().positive().default(fallback).describe(description);

/** The names of the server adapters (`src/languages/index.ts` maps each to its file). */
export const ADAPTER_NAMES = [
  "standard",
  "bacon-ls",
  "bash",
  "biome",
  "ccls",
  "gopls",
  "python-native",
  "pyrefly",
  "rust-analyzer",
  "typescript",
  "tsserver",
  "yaml",
] as const;

/** The kinds of project root a server can be told of (`src/config/project-roots.ts` finds each). */
export const PROJECT_KINDS = ["pyright", "basedpyright", "ty", "cargo", "typescript"] as const;

/**
 * Server keys that one server understood, which its adapter replaced: a config that still sets one
 * is refused with what to write instead, never read silently as something else.
 */
export const REPLACED_SERVER_KEYS: Readonly<Record<string, string>> = {
  settle_after_progress: 'adapter = "biome"',
  ready_log: 'adapter = "biome"',
  ignored_progress: 'adapter = "ccls"',
  settle_barrier: 'adapter = "gopls"',
  settle_flycheck: 'adapter = "rust-analyzer"',
  watch_files: 'adapter = "typescript" (or "tsserver")',
};

/** Defaults of the optional server fields, applied after a profile is merged. */
export const SERVER_DEFAULTS = {
  args: [] as string[],
  settle_quiet_ms: DEFAULT_SETTLE_QUIET_MS,
  env: {} as Record<string, string>,
  initialization_options: {} as Record<string, unknown>,
  settings: {} as Record<string, unknown>,
} as const;

/** `[bridge]`: every key has a default, so the table may be left out. */
const BridgeSchema = z
  .strictObject({
    max_sessions: positiveInt(
      4,
      "Live language-server sessions at once. Starting one more makes the least recently used session that no call is using give way (stopped in order, as idle_stop_s stops it; the next call starts it again); SessionLimit only when every live session is in use by a call.",
    ),
    max_result_bytes: positiveInt(32768, "Ceiling on any tool result, in UTF-8 bytes of its JSON."),
    max_preview_files: positiveInt(64, "Files one `diagnostics` call with `changes` may preview at once."),
    request_timeout_ms: positiveInt(30000, "Deadline of each LSP request; also the diagnostics settle deadline."),
    start_timeout_ms: positiveInt(
      120000,
      "Deadline of a language server's start (spawn, initialize, version pin), whatever the call that began it. Until it has passed since the start, time the server spends loading (before its first answer, publish or progress, and while its work-done progress runs) does not count against a call's request_timeout_ms.",
    ),
    max_open_documents: positiveInt(
      256,
      "Documents each session keeps open; past it the least recently used one is closed (didClose) and reopened from disk when next asked for.",
    ),
    idle_stop_s: z
      .int()
      .nonnegative()
      .default(0)
      .describe(
        "A session with no call for this many seconds is stopped in order (state idle, last exit reason idle); the next call starts it again. 0: never.",
      ),
  })
  .describe("Bridge-wide limits.");

/** `[shared]`: one shared bridge per config for fleets of workers; every key has a default. */
const SharedSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe("serve elects one shared bridge per config and attaches later ones to it; false (or serve --standalone) runs each bridge alone."),
    lease_dir: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Folder of lspmcp's runtime files (leases, log, HTTP token, snapshots), relative to this file; it must be this user's, mode 0700, not a symlink. Needs trust in a checkout's file. Default: $XDG_RUNTIME_DIR/lspmcp when set, else lspmcp-UID in the system temp folder.",
      ),
    linger_ms: z
      .int()
      .nonnegative()
      .default(1000)
      .describe("How long the shared bridge stays up after its last peer leaves, for a worker that comes right back."),
    max_calls_per_peer: positiveInt(
      4,
      "Tool calls of one peer (one attached agent) that the shared bridge runs at once; its further calls wait their turn, still under their deadline.",
    ),
    max_calls_in_flight: positiveInt(
      16,
      "Tool calls of all peers that the shared bridge runs at once; a freed slot goes to the next peer in turn (round-robin).",
    ),
  })
  .describe("Sharing one bridge (and its language servers) between the lspmcp processes of one checkout.");

/**
 * The ways a server runs a checkout's own code, which restricted mode runs none of
 * (`src/languages/checkout-code.ts` tells, for each, whether a workspace has it).
 */
const CHECKOUT_CODE_KINDS = ["workspace-compiler", "environment-interpreter", "config-scripts", "cargo-build", "go-list"] as const;

/** One way a profile's server runs a checkout's code; a profile key only, never a bridge.toml's. */
const CheckoutCodeSchema = z.strictObject({
  runs: z.enum(CHECKOUT_CODE_KINDS),
  /** For `config-scripts`: the configuration files the server loads as code. */
  files: z.array(z.string().min(1)).min(1).optional(),
  /** What runs, in the user's words ("its JavaScript configuration"). */
  what: z.string().min(1),
});

/** One entry of a server's `languages`. */
const LanguageSchema = z
  .strictObject({
    id: z.string().min(1).describe('LSP language id sent in didOpen, e.g. "typescript".'),
    extensions: z.array(z.string().min(1)).min(1).optional().describe('File extensions of this language, e.g. [".ts", ".mts"]; matched case-insensitively.'),
    filenames: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('Whole file names of this language, e.g. ["Dockerfile"]; matched exactly, before extensions.'),
  })
  .refine((language) => language.extensions !== undefined || language.filenames !== undefined, {
    message: "a language claims files by `extensions`, `filenames` or both",
    path: ["extensions"],
  })
  .describe("One language a server claims, by file extension or by whole file name.");

/** The fields a server shares with its profile (everything but `name` and `profile`). */
const serverFields = {
  command: z
    .string()
    .min(1)
    .describe("Executable: a path (relative to the file that sets it; a leading {cache}/ is lspmcp's tool cache) or a bare name looked up on PATH."),
  args: z.array(z.string()).meta({ default: SERVER_DEFAULTS.args }).describe("Arguments after the command."),
  version: z.string().min(1).describe("The pin: the exact version the server must report (whole-token match)."),
  version_command: z
    .array(z.string().min(1))
    .min(1)
    .describe("Full argv whose stdout reports the version; its first element is resolved like command. When absent, serverInfo.version is used."),
  languages: z.array(LanguageSchema).min(1).describe("Languages the server claims."),
  position_encoding: z
    .enum(["utf-8", "utf-16", "utf-32"])
    .describe(
      "What the server really counts in positions, when that differs from the encoding it negotiates (ccls and fortls count code points: utf-32; pylsp counts UTF-8 bytes).",
    ),
  adapter: z
    .enum(ADAPTER_NAMES)
    .meta({ default: "standard" })
    .describe(
      'What the server needs beyond the LSP spec: how its diagnostics settle, when it takes documents, which progress it ignores, what its initialization options must hold. "standard" for a server that needs nothing more. "typescript" also has each project answered by its own compiler (5.x and 6.x through typescript-language-server, as "tsserver"), else the pinned one. An entry with neither this key nor a profile gets the adapter of a server lspmcp recognises (docs/servers.md, "A known server written by hand").',
    ),
  projects: z
    .enum(PROJECT_KINDS)
    .describe(
      'The project roots the server is told of, so that each file is answered under its own project: "pyright" (pyrightconfig.json, [tool.pyright]), "basedpyright" (also [tool.basedpyright]), "ty" (ty.toml, [tool.ty]), "cargo" (every crate and cargo workspace), "typescript" (tsconfig.json, jsconfig.json: reported only). When absent, the workspace root alone.',
    ),
  inherit_env: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "an environment variable name is letters, digits and '_', not starting with a digit" }))
    .meta({ default: [] })
    .describe(
      "Variables of the bridge's environment that the server inherits besides PATH, HOME and LANG: those its toolchain reads (GOPATH, CARGO_HOME, VIRTUAL_ENV, ...). A [[server]]'s names add to its profile's; env wins over an inherited value.",
    ),
  env: z
    .record(z.string(), z.string())
    .meta({ default: SERVER_DEFAULTS.env })
    .describe(
      "Extra environment for the server, set whatever the bridge's own; the rest is scrubbed to PATH, HOME, LANG and inherit_env. A value starting {cache}/ is in lspmcp's tool cache; {workspace_cache}/ is a folder of the workspace's own there (build state such as cargo's target folder, never shared by two workspaces).",
    ),
  initialization_options: z
    .record(z.string(), z.unknown())
    .meta({ default: SERVER_DEFAULTS.initialization_options })
    .describe("Sent as initializationOptions in initialize."),
  settings: z
    .record(z.string(), z.unknown())
    .meta({ default: SERVER_DEFAULTS.settings })
    .describe('Answers workspace/configuration: section "a.b" is settings.a.b.'),
  settle_quiet_ms: z
    .int()
    .nonnegative()
    .max(600_000)
    .meta({ default: SERVER_DEFAULTS.settle_quiet_ms })
    .describe(
      "The quiet window of the standard settle rule, in milliseconds: a pushed answer is taken only once the server has said nothing, and computed nothing, for this long after it. 0: no window, so a pushed file is answered as not settled (Timeout), never clean. Adapters with a settle strategy of their own do not use it.",
    ),
  max_rss_mb: z
    .int()
    .nonnegative()
    .describe(
      "Resident memory (MiB) the session's whole process tree may use; past it the tree is ended and calls answer SessionDead with reason memory until session_restart. 0: no cap (turns a profile's cap off).",
    ),
};

/** The keys a server must have once its profile is merged. */
export const REQUIRED_SERVER_KEYS = ["command", "version", "languages"] as const;

/** The keys a `[[server]]` shares with its profile, all optional as written. */
const ServerFieldsSchema = z.strictObject(serverFields).partial();

/**
 * A `servers/NAME.toml` file: the top-level keys of a `[[server]]` minus `name` and `profile`, and
 * two keys only a shipped profile has: `install` (where the server comes from) and `default` (how
 * the embedded default detects and orders it).
 */
export const ServerProfileSchema = ServerFieldsSchema.extend({
  install: InstallSchema.optional(),
  default: EmbeddedDefaultSchema.optional(),
  checkout_code: z.array(CheckoutCodeSchema).optional(),
});

/** `[[server]]`: only `name` is required as written; the rest may come from its profile. */
export const ServerSchema = z
  .strictObject({
    name: name("server"),
    profile: z
      .string()
      .regex(PROFILE_PATTERN, { message: "a profile name is lower-case letters, digits, '_' or '-'" })
      .optional()
      .describe("Take every field from servers/NAME.toml; keys set here replace the profile's (settings and initialization_options are laid over it)."),
    ...ServerFieldsSchema.shape,
  })
  .describe("A pinned language server.");

/** `[[workspace]]`. */
export const WorkspaceSchema = z
  .strictObject({
    name: name("workspace"),
    root: z.string().min(1).describe("Directory of the workspace, relative to this file; must exist."),
    servers: z.array(z.string()).min(1).describe("Names of the [[server]] entries that serve this workspace."),
    default_server: z
      .record(z.string(), z.string())
      .optional()
      .meta({ default: {} })
      .describe(
        'Extension (or claimed file name) → server name, required for one claimed by several servers: { ".h" = "clangd" }. It answers every tool but diagnostics, which asks every claiming server.',
      ),
    diagnostics_server: z
      .record(z.string(), z.string())
      .optional()
      .meta({ default: {} })
      .describe(
        'Extension (or claimed file name) → the one server whose diagnostics answer for it, where several claim it: { ".rs" = "bacon-ls" }. The others are not asked for those files\' diagnostics (nor by check); every other tool follows default_server.',
      ),
    exclude: z
      .array(z.string().min(1))
      .optional()
      .meta({ default: [] })
      .describe('Glob patterns relative to root that check skips, e.g. ["node_modules/**", "build/**"].'),
  })
  .describe("A folder served by some of the servers.");

/** A non-empty array of tables, with messages that say how to write one in TOML. */
function tables<S extends z.ZodType>(schema: S, key: string) {
  const needed = `at least one [[${key}]] table is required`;
  return z
    .array(schema, {
      error: (issue) => (issue.input === undefined ? needed : `expected [[${key}]] tables (an array of tables), not a [${key}] table or a single value`),
    })
    .min(1, needed);
}

/** The whole bridge.toml. */
export const ConfigSchema = z
  .strictObject({
    // prefault: a missing [bridge] is parsed as an empty table, so its keys take their defaults.
    bridge: BridgeSchema.prefault({}),
    shared: SharedSchema.prefault({}),
    server: tables(ServerSchema, "server").describe("Language servers, as [[server]] tables."),
    workspace: tables(WorkspaceSchema, "workspace").describe("Workspaces, as [[workspace]] tables."),
  })
  .meta({ title: "lspmcp bridge.toml", description: "Configuration of the lspmcp LSP-to-MCP bridge." });

/** A `[[server]]` table as written, validated but not merged or resolved. */
export type RawServer = z.output<typeof ServerSchema>;
/** A `servers/NAME.toml` profile as written. */
export type RawProfile = z.output<typeof ServerProfileSchema>;
export type CheckoutCode = z.output<typeof CheckoutCodeSchema>;
/** A `[[workspace]]` table as written, validated but not resolved. */
export type RawWorkspace = z.output<typeof WorkspaceSchema>;
