import type { PositionEncoding } from "../contract/positions.js";
import type { ProjectKind } from "./project-roots.js";
import type { ADAPTER_NAMES, CheckoutCode } from "./schema.js";

/** The name of a server adapter, as a profile's `adapter` key gives it. */
export type AdapterName = (typeof ADAPTER_NAMES)[number];
/**
 * The configuration after loading: profiles merged, defaults applied, every path absolute and
 * checked. This is what the rest of the bridge consumes; nothing outside `src/config/` sees TOML.
 */
export interface ResolvedConfig {
  /**
   * Absolute path of the bridge.toml that was loaded; for the embedded default (no file), the
   * workspace root it was made for. Either way it names this configuration (its lease derives from it).
   */
  readonly configPath: string;
  /** Where the configuration came from: a file, or the embedded default of a root. */
  readonly source: ConfigSource;
  /** Shipped profiles the embedded default would have served but whose server is missing here. */
  readonly omitted: readonly OmittedServer[];
  /** The embedded default's servers chosen for what the project configures, and why; empty for a file. */
  readonly chosen: readonly ChosenServer[];
  /** The project roots the embedded default found for its servers that take them; empty for a file. */
  readonly projects: readonly FoundProjects[];
  readonly bridge: BridgeSettings;
  readonly shared: SharedSettings;
  /** In configuration order. */
  readonly servers: readonly ResolvedServer[];
  /** In configuration order. */
  readonly workspaces: readonly ResolvedWorkspace[];
}

interface BridgeSettings {
  readonly max_sessions: number;
  readonly max_result_bytes: number;
  /** Files one `diagnostics` call with `changes` may preview. */
  readonly max_preview_files: number;
  readonly request_timeout_ms: number;
  /** Deadline of a session's start; until it has passed since the start, the server's load does not count against calls. */
  readonly start_timeout_ms: number;
  readonly max_open_documents: number;
  /** Seconds without a call after which a session is stopped in order; 0: never. */
  readonly idle_stop_s: number;
}

interface SharedSettings {
  readonly enabled: boolean;
  /** Absolute, or null for the default location (chosen at run time from the environment). */
  readonly lease_dir: string | null;
  readonly linger_ms: number;
  /** Tool calls of one peer that run at once; the rest wait in the peer's queue. */
  readonly max_calls_per_peer: number;
  /** Tool calls of all peers that run at once; slots go round-robin between peers. */
  readonly max_calls_in_flight: number;
}

export interface LanguageClaim {
  /** LSP language id sent in didOpen. */
  readonly id: string;
  /** Lower-case, with the leading dot: ".ts". */
  readonly extensions: readonly string[];
  /** Whole file names, exactly as written: "Dockerfile". */
  readonly filenames: readonly string[];
}

export interface ResolvedServer {
  readonly name: string;
  /** Absolute path of an existing executable file. */
  readonly command: string;
  readonly args: readonly string[];
  /** The pin. */
  readonly version: string;
  /** Full argv with argv[0] absolute, or null when the pin is checked against serverInfo.version. */
  readonly version_command: readonly string[] | null;
  readonly languages: readonly LanguageClaim[];
  /**
   * What the server really counts in positions when it differs from what it negotiates, or null
   * to trust the negotiated `positionEncoding`.
   */
  readonly position_encoding: PositionEncoding | null;
  /** The server's adapter (`src/languages/`): what it needs beyond the LSP spec. */
  readonly adapter: AdapterName;
  /** How `adapter` was chosen (`validate` says it). */
  readonly adapter_chosen_by: AdapterChoice;
  /** Which project roots under the workspace the server is told of at its start; null: the root alone. */
  readonly projects: ProjectKind | null;
  /**
   * Names of the bridge's variables the child inherits besides PATH, HOME and LANG (its
   * toolchain's: GOPATH, CARGO_HOME, VIRTUAL_ENV, ...): the profile's and the server's own.
   */
  readonly inherit_env: readonly string[];
  /** Extra environment for the child, on top of what it inherits; it wins on a clash. */
  readonly env: Readonly<Record<string, string>>;
  readonly initialization_options: Readonly<Record<string, unknown>>;
  /** Answers workspace/configuration: a section "a.b" is looked up as settings.a.b. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Cap on the resident memory (MiB) of the session's whole process tree, or null for none. */
  readonly max_rss_mb: number | null;
  /** The ways the server runs a checkout's own code (its profile's `checkout_code`), which restricted mode runs none of. */
  readonly checkout_code: readonly CheckoutCode[];
  /**
   * The toolchain a session of this entry runs, on the entry as the files of one toolchain see
   * it (`src/targets/toolchain-server.ts`), for a server whose adapter answers each project with
   * the project's own (TypeScript's compiler); absent on the configured entry, whose session runs
   * the toolchain of the workspace root.
   */
  readonly toolchain?: ToolchainChoice;
  /** The standard settle rule's quiet window after a push answer (ms); 0: none. */
  readonly settle_quiet_ms: number;
}

/**
 * The toolchain that answers a project, as its adapter chose it for one of its files: each
 * toolchain of a (workspace, server) is a session of its own.
 */
export interface ToolchainChoice {
  /** The project folder it was chosen from (absolute): a start chooses again from there. */
  readonly from: string;
  /** Names the toolchain among the server's: the compiler's real package folder, or "pinned". */
  readonly key: string;
  /**
   * Why the project's own toolchain may not run (the checkout does not hold it): its files are
   * listed as not checked with this reason, never answered by another. Null: it runs.
   */
  readonly refused: string | null;
}

/**
 * How a server's adapter was chosen: the entry's own `adapter` key, its profile's, its command
 * recognised as a known server's npm package (`known-servers.ts`), or none of these ("standard":
 * its start may still recognise a known server by its serverInfo or version output).
 */
export type AdapterChoice =
  | { readonly by: "entry" }
  | { readonly by: "profile"; readonly profile: string }
  | { readonly by: "package"; readonly server: string; readonly profile: string }
  /** Known at a start, by what the server said of itself. */
  | { readonly by: "started"; readonly server: string; readonly profile: string; readonly evidence: "serverInfo" | "version output" }
  | { readonly by: "standard" };

export interface ResolvedWorkspace {
  readonly name: string;
  /** Absolute, symlinks resolved, an existing directory. */
  readonly root: string;
  /** Names of servers, each one defined in `servers`. */
  readonly servers: readonly string[];
  /**
   * Extension (".ts") or claimed file name ("Dockerfile") → server name, for those claimed by more
   * than one of `servers`: the server that answers every tool but `diagnostics`.
   */
  readonly default_server: Readonly<Record<string, string>>;
  /**
   * Extension or claimed file name → server name, for those claimed by more than one of `servers`
   * where one owns their diagnostics: the only server `diagnostics` and `check` ask for them.
   */
  readonly diagnostics_server: Readonly<Record<string, string>>;
  /** Glob-like patterns (relative to root) that `check` skips when it walks the tree. */
  readonly exclude: readonly string[];
  /**
   * The folder servers' `{workspace_cache}/` names (src/config/workspace-cache.ts); absent: one in
   * the tool cache named by `root`. A `since` snapshot keeps its own inside it, removed with it.
   */
  readonly state_dir?: string;
  /**
   * The checkout that holds the workspace, where every search for its own code stops
   * (`checkout-code.ts`); absent: the git top-level of `root`, else `root`. A revision's snapshot
   * names its tree.
   */
  readonly checkout?: string;
}

/**
 * Where a configuration comes from: a bridge.toml (given with `--config` or discovered), or the
 * embedded default made for a root folder when no file was found (CONTRACT §2).
 */
export type ConfigSource = { readonly kind: "file"; readonly path: string } | { readonly kind: "default"; readonly root: string };

/** A server the embedded default chose where another could have served (CONTRACT §2). */
export interface ChosenServer {
  readonly server: string;
  /** "configured by pyproject.toml [tool.ty]", or why pyright answers Python. */
  readonly reason: string;
}

/** The project roots found under the root for one server (its profile's `projects`). */
export interface FoundProjects {
  readonly server: string;
  /** Folders relative to the root, "" the root itself, sorted. */
  readonly roots: readonly string[];
}

/** A shipped profile that the embedded default left out, and how to get its server. */
export interface OmittedServer {
  readonly server: string;
  /** Why: the missing executable, as the loader would say it, or the version found off the pin. */
  readonly reason: string;
  /** How to install it, or for a system server off its pin how to pin what is installed, in one line. */
  readonly install: string;
  /** For a system server off its pin: the version it reports, to pin instead. */
  readonly pin?: string;
}
